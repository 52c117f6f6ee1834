import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopImport
import ShopService
import ShopStore

// Products in the back office (issue #16, point 4, first part): the list of every product,
// published or not, with search and filters, and a product's form — text, vendor, category,
// tags, published, images' alt text, and each variant's SKU, price, "was" price, stock and
// tracking, amounts typed in the staff member's language.
//
// A save is a merge, not an overwrite: the form carries each field as it was read (`was:…`),
// and `CatalogStore.changeProduct` — one write transaction — applies only the fields the staff
// member changed, refusing the save when one of those changed underneath (another staff member,
// an import, or an order taking stock). Nothing anyone else wrote is lost, and every change is
// an audit entry as theirs (`ProductAudit`).

extension AdminApp {
    static func productsPage(_ context: inout AdminContext, filter: AdminProductFilter) throws -> Response {
        let catalog = context.environment.catalog
        let found = try catalog.findProducts(CatalogListQuery(text: filter.text, visibility: filter.visibility,
                                                              categoryHandle: filter.category, limit: pageSize,
                                                              offset: (filter.page - 1) * pageSize))
        let categories = try catalog.categories().map(\.category)
        return context.page(title: context.l10n(.adminProductsTitle), nav: .products,
                            AdminViews.products(found, filter: filter, categories: categories, currency: context.environment.currency,
                                                pageSize: pageSize, csrfToken: context.maskedCSRFToken(), l10n: context.l10n))
    }

    /// The whole catalog as a file to download, written by `CatalogExportService` as the CLI's
    /// `export` writes it; an unknown format is a 404. A catalog the format cannot hold (a Shopify
    /// CSV and a product with four options or an "any" variant) goes back to the list saying which
    /// product and which formats can (it was a 500, "try again", which never could work).
    static func productsExport(_ context: inout AdminContext, format name: String) throws -> Response {
        guard let format = CatalogFormat(rawValue: name), CatalogWriter.formats.contains(format) else {
            return context.errorPage(.notFound)
        }
        let data: Data
        do {
            data = try CatalogExportService(catalog: context.environment.catalog, currency: context.environment.currency)
                .export(as: format)
        } catch let error as CatalogExportError {
            context.setFlash(exportRefusal(error.reason, context.l10n), error: true)
            return .redirect(to: AdminRoute.products(AdminProductFilter()).path)
        }
        let isJSON = format == .shoppableJSON
        var response = Response(status: .ok, body: [UInt8](data))
        response.headers.replaceOrAdd(name: "Content-Type", value: isJSON ? "application/json; charset=utf-8" : "text/csv; charset=utf-8")
        response.headers.replaceOrAdd(name: "Content-Disposition", value: "attachment; filename=\"catalog-\(format.rawValue).\(isJSON ? "json" : "csv")\"")
        context.environment.log("catalog exported as \(format.rawValue) by \(context.member?.email ?? "?")")
        return response
    }

    /// Why the catalog cannot be exported in the format asked, in the page's language.
    static func exportRefusal(_ reason: CatalogExportError.Reason, _ l10n: Localizer) -> String {
        switch reason {
        case let .tooManyOptions(handle, count):
            l10n(.adminExportTooManyOptions, ["handle": handle, "options": "\(count)"])
        case let .openVariant(handle, sku?, option):
            l10n(.adminExportOpenVariant, ["handle": handle, "sku": sku, "option": option])
        case let .openVariant(handle, nil, option):
            l10n(.adminExportOpenVariantNoSKU, ["handle": handle, "option": option])
        case let .notWritable(format):
            // `productsExport` asks only for formats a catalog is written in.
            CatalogExportError(.notWritable(format)).message
        }
    }

    /// One change to every variant of the ticked products, in one transaction: all of them or,
    /// when one cannot take it, none (the list says which and why).
    /// "Enter at most …": a price above the highest a variant may have, naming it.
    static func priceTooHigh(_ currency: Currency, _ l10n: Localizer) -> String {
        l10n(.adminProductErrorPriceTooHigh,
             ["maximum": l10n.money(Money(minorUnits: VariantDraft.maximumPriceMinorUnits, currency: currency))])
    }

    /// The bulk form's field of a row's lowest price as shown, before the row's handle.
    static let shownPricePrefix = "shown-price-"

    static func productsBulk(_ context: inout AdminContext) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let request = context.request, l10n = context.l10n, currency = context.environment.currency
        let back = SafeRedirect.localPath(request.formValue("return_to")).flatMap { AdminRoute.localNext($0) }
            ?? AdminRoute.products(AdminProductFilter()).path
        // Each product once (a list ticked twice, or a crafted post), at most 500.
        var seen: Set<Int64> = []
        let ids = request.form.filter { $0.name == "product" }.compactMap { Int64($0.value) }.filter { seen.insert($0).inserted }
            .prefix(500).map { Product.ID($0) }
        guard !ids.isEmpty else {
            context.setFlash(l10n(.adminBulkNoneTicked), error: true)
            return .redirect(to: back)
        }
        let value = request.formValue("value") ?? ""
        let change: BulkChange
        switch request.formValue("change") {
        case "set-price":
            let read = AdminAmounts.read(value, currency: currency, l10n, else: .adminProductErrorPrice)
            guard case let .success(price) = read, price.minorUnits >= 0, price.minorUnits <= VariantDraft.maximumPriceMinorUnits else {
                let refusal = switch read {
                case let .failure(refusal): refusal.message
                case let .success(price) where price.minorUnits > VariantDraft.maximumPriceMinorUnits: Self.priceTooHigh(currency, l10n)
                case .success: l10n(.adminBulkBadValue)
                }
                context.setFlash(refusal, error: true)
                return .redirect(to: back)
            }
            change = .setPrice(price)
        case "adjust-price":
            // The hint's example is written with a true minus sign (U+2212): read it as `-`.
            guard let percent = Int(value.trimmedOfWhiteSpace.replacingOccurrences(of: "%", with: "")
                                        .replacingOccurrences(of: "\u{2212}", with: "-")),
                  BulkChange.percentRange.contains(percent) else {
                // Said for this change alone (`10.5` got the message of all three, a fresh tester's).
                context.setFlash(l10n(.adminBulkBadPercent), error: true)
                return .redirect(to: back)
            }
            change = .adjustPrice(percent: percent)
        case "set-stock":
            guard let quantity = Int(value.trimmedOfWhiteSpace), (0...VariantDraft.maximumStock).contains(quantity) else {
                context.setFlash(l10n(.adminProductErrorStock), error: true)
                return .redirect(to: back)
            }
            change = .setStock(quantity)
        default:
            return context.errorPage(.badRequest)
        }
        // The lowest price each row showed, by handle (`shown-price-HANDLE`): a percentage is
        // applied only to products still as shown, so a form sent twice applies once.
        let shownPrices = Dictionary(request.form.compactMap { field -> (String, Int64)? in
            guard field.name.hasPrefix(Self.shownPricePrefix), let minor = Int64(field.value) else { return nil }
            return (String(field.name.dropFirst(Self.shownPricePrefix.count)), minor)
        }, uniquingKeysWith: { first, _ in first })
        do {
            let changed = try context.environment.catalog.changeProductsBy(ids, .staff(member.email), context.now) { draft in
                try change.applied(to: draft, shownLowestPriceMinor: shownPrices[draft.handle])
                    .datedIfPublished(since: draft, now: context.now)
            }
            context.environment.log("bulk \(request.formValue("change") ?? "?") on \(changed.count) products by \(member.email)")
            context.setFlash(l10n.count(changed.count, .adminBulkDone))
        } catch BulkChange.Problem.changedSinceShown {
            context.setFlash(l10n(.adminBulkChangedSinceShown), error: true)
        } catch is BulkChange.Problem {
            context.setFlash(l10n(.adminBulkBadValue), error: true)
        } catch let error as CatalogStoreError {
            context.setFlash(l10n(.adminProductErrorStore, ["reason": error.errorDescription ?? "\(error)"]), error: true)
        }
        return .redirect(to: back)
    }

    /// A new product as the form starts it: one variant, untracked, published.
    static let newProduct = ProductDraft(handle: "", title: "", variants: [VariantDraft(sku: nil, price: Money(minorUnits: 0, currency: .usd))])

    static func productNewPage(_ context: inout AdminContext) throws -> Response {
        var form = AdminProductForm(Self.newProduct, language: context.l10n.language)
        form.values["price-1"] = ""
        form.creationKey = context.environment.crypto.randomToken()
        return try productForm(&context, id: nil, draft: Self.newProduct, form: form)
    }

    /// Adds a product from the new-product form — the same fields and checks as a product's
    /// page, one variant — under a handle made from its title, audited as a `create`; then its page.
    static func productCreate(_ context: inout AdminContext) throws -> Response {
        guard let actor = context.actor else { return context.errorPage(.forbidden) }
        let l10n = context.l10n, currency = context.environment.currency
        var form = AdminProductForm(creating: context.request)
        guard let edit = form.parse(currency: currency, language: form.typedIn ?? l10n.language, l10n: l10n) else {
            form.alert = l10n(.adminCampaignErrorForm)
            return try productForm(&context, id: nil, draft: Self.newProduct, form: form, status: .unprocessableContent)
        }
        let draft = edit.applied(to: Self.newProduct, changed: Set(AdminProductForm.fieldNames(variants: 1, images: 0)))
        let service = CatalogAdminService(catalog: context.environment.catalog, currency: currency, now: context.environment.now)
        do {
            let created = try service.insert(draft, by: actor, creationKey: form.creationKey)
            context.setFlash(l10n(.adminProductCreated, ["title": created.product.title]))
            context.environment.log("product \(created.product.handle) created by \(actor.name)")
            return .redirect(to: AdminRoute.product(created.product.id).path)
        } catch let error as CatalogStoreError {
            if case .skuTaken = error { form.errors["sku-1", default: []].append(l10n(.adminProductErrorSKU)) }
            form.alert = form.errors.isEmpty ? l10n(.adminProductErrorStore, ["reason": error.errorDescription ?? "\(error)"])
                : l10n(.adminCampaignErrorForm)
            return try productForm(&context, id: nil, draft: Self.newProduct, form: form, status: .conflict)
        }
    }

    static func productPage(_ context: inout AdminContext, id: Product.ID) throws -> Response {
        guard let stored = try context.environment.catalog.storedProduct(id) else { return context.errorPage(.notFound) }
        let draft = ProductDraft(stored.product, categoryName: stored.categoryName)
        return try productForm(&context, id: id, draft: draft, form: AdminProductForm(draft, language: context.l10n.language))
    }

    /// A product's form (`id` nil: a new product's).
    static func productForm(_ context: inout AdminContext, id: Product.ID?, draft: ProductDraft, form: AdminProductForm,
                            status: HTTPStatus = .ok) throws -> Response {
        let categories = try context.environment.catalog.categories().map(\.category)
        let title = id == nil ? context.l10n(.adminProductNewTitle) : context.l10n(.adminProductEditTitle, ["title": draft.title])
        return context.page(title: title, nav: .products,
                            AdminViews.productForm(form, id: id, draft: draft, categories: categories, title: title,
                                                   currency: context.environment.currency, csrfToken: context.maskedCSRFToken(),
                                                   l10n: context.l10n),
                            status: status)
    }

    static func productSave(_ context: inout AdminContext, id: Product.ID) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let catalog = context.environment.catalog
        let l10n = context.l10n, currency = context.environment.currency
        guard let stored = try catalog.storedProduct(id) else { return context.errorPage(.notFound) }
        var form = AdminProductForm(request: context.request)
        // The amounts were shown in the form's language, which the staff member may have changed
        // in another tab since (a fresh tester's false conflict: "77.50" read back as Turkish).
        let typedIn = form.typedIn ?? l10n.language
        guard let edit = form.parse(currency: currency, language: typedIn, l10n: l10n) else {
            form.alert = l10n(.adminCampaignErrorForm)
            return try productForm(&context, id: id, draft: ProductDraft(stored.product, categoryName: stored.categoryName),
                                   form: form, status: .unprocessableContent)
        }
        var conflicts: [String] = []
        var changedAnything = false
        do {
            let saved = try catalog.changeProduct(id, by: .staff(member.email), now: context.now) { current in
                let now = AdminProductForm(current, language: typedIn)
                conflicts = form.conflicts(with: now)
                guard conflicts.isEmpty else { throw AdminProductForm.Conflict() }
                let next = edit.applied(to: current, changed: form.changedFields).datedIfPublished(since: current, now: context.now)
                changedAnything = next != current
                return next
            }
            guard let saved else { return context.errorPage(.notFound) }
            context.setFlash(changedAnything ? l10n(.adminProductSaved, ["title": saved.product.title]) : l10n(.adminProductUnchanged))
            if changedAnything { context.environment.log("product \(saved.product.handle) saved by \(member.email)") }
            return .redirect(to: AdminRoute.product(id).path)
        } catch is AdminProductForm.Conflict {
            // The page again with what is stored now, and which fields moved under the staff member.
            guard let fresh = try catalog.storedProduct(id) else { return context.errorPage(.notFound) }
            let draft = ProductDraft(fresh.product, categoryName: fresh.categoryName)
            var again = AdminProductForm(draft, language: l10n.language)
            let names = conflicts.map { AdminViews.productFieldName($0, l10n) }
            again.alert = l10n(.adminProductChanged, ["fields": names.formatted(.list(type: .and).locale(l10n.language.locale))])
            return try productForm(&context, id: id, draft: draft, form: again, status: .conflict)
        } catch let error as CatalogStoreError {
            switch error {
            case let .skuTaken(sku, _, _, _), let .duplicateSKU(_, sku, _):
                for (key, value) in form.values where key.hasPrefix("sku-") && value.trimmedOfWhiteSpace == sku {
                    form.errors[key, default: []].append(l10n(.adminProductErrorSKU))
                }
            default: break
            }
            // A field's own message says it; otherwise the store's reason.
            form.alert = form.errors.isEmpty ? l10n(.adminProductErrorStore, ["reason": error.errorDescription ?? "\(error)"])
                : l10n(.adminCampaignErrorForm)
            return try productForm(&context, id: id, draft: ProductDraft(stored.product, categoryName: stored.categoryName),
                                   form: form, status: .conflict)
        }
    }
}

/// The product form's values as sent (each with the value it was read at, `was:NAME`), its
/// mistakes, and the reading of it.
struct AdminProductForm: Sendable {
    var values: [String: String] = [:]
    /// The values the page was read at, by field name.
    var was: [String: String] = [:]
    /// The language the form was shown in (its amounts are written in it), when it says.
    var typedIn: Language?
    /// The hidden field that says it.
    static let typedInField = "typed_in"
    /// The new-product form's key (`CatalogStore.insertProduct`'s `creationKey`): made when the
    /// form is first shown and sent back with it, so a second submit of that form answers the
    /// product the first one created instead of adding another.
    static let creationKeyField = "creation_key"
    /// The key a new-product form was shown with: nil for another form, or a value this shop
    /// did not make (64 URL-safe characters at most).
    var creationKey: String?
    var errors: [String: [String]] = [:]
    var alert: String?

    struct Conflict: Error {}

    func value(_ name: String) -> String { values[name] ?? "" }
    func errors(_ name: String) -> [String] { errors[name] ?? [] }

    /// The form of a stored product, every field's `was` the same as its value.
    init(_ draft: ProductDraft, language: Language) {
        var values = ["title": draft.title, "description": HTMLSanitizer.normalizedLineEnds(draft.descriptionHTML),
                      "vendor": draft.vendor, "category": draft.categoryName ?? "", "tags": draft.tags.joined(separator: ", "),
                      "published": draft.isPublished ? "1" : "",
                      "variants": String(draft.variants.count), "images": String(draft.images.count)]
        for (index, image) in draft.images.enumerated() {
            values["alt-\(index + 1)"] = image.altText
            values["position-\(index + 1)"] = String(index + 1)
        }
        for (index, variant) in draft.variants.enumerated() {
            let n = index + 1
            values["sku-\(n)"] = variant.sku ?? ""
            values["price-\(n)"] = variant.price.typedString(language: language)
            values["compare-\(n)"] = variant.compareAtPrice?.typedString(language: language) ?? ""
            switch variant.inventory {
            case .untracked: values["tracked-\(n)"] = ""; values["stock-\(n)"] = ""
            case let .tracked(quantity, _): values["tracked-\(n)"] = "1"; values["stock-\(n)"] = String(quantity)
            }
        }
        self.values = values
        self.was = values
    }

    /// The fields a product form has, for `variants` variants and `images` images.
    static func fieldNames(variants: Int, images: Int) -> [String] {
        ["title", "description", "vendor", "category", "tags", "published"]
            + (0..<images).flatMap { ["alt-\($0 + 1)", "position-\($0 + 1)"] }
            + (0..<variants).flatMap { index in ["sku", "price", "compare", "tracked", "stock"].map { "\($0)-\(index + 1)" } }
    }

    /// A new product's form as sent: one variant, no images, nothing it was read at.
    init(creating request: Request) {
        typedIn = request.formValue(Self.typedInField).flatMap(Language.init(rawValue:))
        creationKey = request.formValue(Self.creationKeyField).flatMap { key in
            (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            } ? key : nil
        }
        values["variants"] = "1"
        values["images"] = "0"
        for name in Self.fieldNames(variants: 1, images: 0) { values[name] = request.formValue(name) ?? "" }
    }

    init(request: Request) {
        typedIn = request.formValue(Self.typedInField).flatMap(Language.init(rawValue:))
        let variants = min(Int(request.formValue("was:variants") ?? "") ?? 0, 1_000)
        let images = min(Int(request.formValue("was:images") ?? "") ?? 0, 1_000)
        values["variants"] = String(variants)
        values["images"] = String(images)
        was["variants"] = String(variants)
        was["images"] = String(images)
        for name in Self.fieldNames(variants: variants, images: images) {
            // An unticked checkbox is not sent: it is "". Line ends compare as the store keeps
            // them: a browser sends the textarea's and the hidden `was:` copy's as CRLF, and the
            // stored description has LF, so an edited description read as changed underneath.
            values[name] = HTMLSanitizer.normalizedLineEnds(request.formValue(name) ?? "")
            was[name] = HTMLSanitizer.normalizedLineEnds(request.formValue("was:\(name)") ?? "")
        }
    }

    /// The fields the staff member changed from what the page was read at.
    var changedFields: Set<String> {
        Set(values.keys.filter { values[$0] != was[$0] })
    }

    /// The changed fields that also changed in the store since the page was read (`now`: the
    /// form of the product as it is in the write transaction). The whole form conflicts when its
    /// variants or images are not the ones read (an import added one meanwhile).
    func conflicts(with now: AdminProductForm) -> [String] {
        guard now.values["variants"] == was["variants"], now.values["images"] == was["images"] else { return ["variants"] }
        return changedFields.filter { now.values[$0] != was[$0] }.sorted()
    }

    /// The typed values, read and checked; nil with `errors` filled in.
    mutating func parse(currency: Currency, language: Language, l10n: Localizer) -> AdminProductEdit? {
        func fail(_ field: String, _ message: String) { errors[field, default: []].append(message) }
        func limited(_ field: String, _ limit: Int) -> String {
            let text = value(field).trimmedOfWhiteSpace
            if text.utf8.count > limit { fail(field, l10n(.adminProductErrorText, ["limit": l10n.number(limit)])) }
            return text
        }
        let limits = CatalogAdminService.limits
        let example = Money(minorUnits: 1999, currency: currency).typedString(language: language)
        /// The amount typed in `field`, or nil with the reason recorded (`AdminAmounts`).
        func amount(_ field: String, _ text: String, else message: L10nKey) -> Money? {
            switch AdminAmounts.read(text, currency: currency, l10n, else: message) {
            case let .success(amount) where amount.minorUnits >= 0 && amount.minorUnits <= VariantDraft.maximumPriceMinorUnits:
                return amount
            case let .success(amount) where amount.minorUnits > VariantDraft.maximumPriceMinorUnits:
                fail(field, AdminApp.priceTooHigh(currency, l10n))
            case .success:
                fail(field, l10n(message, ["example": example]))
            case let .failure(refusal):
                fail(field, refusal.message)
            }
            return nil
        }
        var edit = AdminProductEdit()
        edit.title = limited("title", limits.title)
        if edit.title.isEmpty { fail("title", l10n(.adminProductErrorTitle)) }
        let description = value("description")
        if description.utf8.count > limits.description { fail("description", l10n(.adminProductErrorText, ["limit": l10n.number(limits.description)])) }
        edit.description = CatalogAdminService.sanitizedDescription(description)
        edit.vendor = limited("vendor", limits.name)
        edit.category = limited("category", limits.name)
        edit.tags = value("tags").split(separator: ",").map { String($0).trimmedOfWhiteSpace }.filter { !$0.isEmpty }
        if edit.tags.contains(where: { $0.utf8.count > limits.tag }) { fail("tags", l10n(.adminProductErrorText, ["limit": l10n.number(limits.tag)])) }
        var seenTags: Set<String> = []
        edit.tags = edit.tags.filter { seenTags.insert($0.lowercased()).inserted }
        edit.isPublished = !value("published").isEmpty
        let images = Int(value("images")) ?? 0, variants = Int(value("variants")) ?? 0
        edit.altTexts = (0..<images).map { limited("alt-\($0 + 1)", limits.altText) }
        // Positions 1…images; two images cannot move to one position.
        edit.imagePositions = (0..<images).map { index in
            let field = "position-\(index + 1)"
            guard let position = Int(value(field).trimmedOfWhiteSpace), (1...images).contains(position) else {
                fail(field, l10n(.adminProductErrorPosition, ["count": String(images)]))
                return index + 1
            }
            return position
        }
        var targets: Set<Int> = []
        for move in edit.movedImages(changed: changedFields) where !targets.insert(move.to).inserted {
            fail("position-\(move.from + 1)", l10n(.adminProductErrorPositionTwice, ["position": String(move.to + 1)]))
        }
        for index in 0..<variants {
            let n = index + 1
            var variant = AdminProductEdit.Variant()
            let sku = limited("sku-\(n)", limits.sku)
            variant.sku = sku.isEmpty ? nil : sku
            if let price = amount("price-\(n)", value("price-\(n)"), else: .adminProductErrorPrice) { variant.price = price }
            let compare = value("compare-\(n)").trimmedOfWhiteSpace
            if !compare.isEmpty {
                variant.compareAtPrice = amount("compare-\(n)", compare, else: .adminProductErrorCompareAt)
                // A "was" price at or below the price is never shown (`Variant.compareAtPrice`):
                // stored, it would come back as a sale the day the price drops (a fresh tester's
                // 40.00 under 47.00 vanished from the form and could not be cleared).
                if changedFields.contains("compare-\(n)"), let was = variant.compareAtPrice,
                   was.minorUnits <= variant.price.minorUnits {
                    fail("compare-\(n)", l10n(.adminProductErrorCompareAtNotHigher))
                }
            }
            variant.tracked = !value("tracked-\(n)").isEmpty
            let stock = value("stock-\(n)").trimmedOfWhiteSpace
            if variant.tracked || !stock.isEmpty {
                // A stock below zero (orders taken on backorder) is shown as it is and may be sent
                // back unchanged; a new one is refused, as `shoppable stock set` refuses it (a
                // fresh tester's -3 reached the dashboard's low-stock list).
                let typedNow = changedFields.contains("stock-\(n)")
                if let quantity = Int(stock), quantity.magnitude <= UInt(VariantDraft.maximumStock), quantity >= 0 || !typedNow {
                    variant.stock = quantity
                } else if variant.tracked || typedNow {
                    fail("stock-\(n)", l10n(.adminProductErrorStock))
                }
                // A count typed for a variant whose stock is not tracked would be dropped without
                // a word (a fresh tester's "In stock: 1" saved as untracked).
                if !variant.tracked, typedNow, let quantity = Int(stock), quantity != 0 {
                    fail("stock-\(n)", l10n(.adminProductErrorStockUntracked, ["tracked": l10n(.adminFieldTracked)]))
                }
            }
            edit.variants.append(variant)
        }
        return errors.isEmpty ? edit : nil
    }
}

/// A product form read into typed values; ``applied(to:changed:)`` writes the changed ones.
struct AdminProductEdit: Sendable {
    /// The images given a new position: (index when read, target index), from 0.
    func movedImages(changed: Set<String>) -> [(from: Int, to: Int)] {
        imagePositions.indices.compactMap { index in
            let target = imagePositions[index] - 1
            return changed.contains("position-\(index + 1)") && target != index ? (index, target) : nil
        }
    }

    /// `items` with each moved one taken out and put back at its target (by target, so "1 → 3"
    /// puts the first last and "3 → 1" the third first); the others keep their order.
    static func reordered<Item>(_ items: [Item], moving moves: [(from: Int, to: Int)]) -> [Item] {
        guard !moves.isEmpty else { return items }
        let movedIndices = Set(moves.map(\.from))
        var result = items.indices.filter { !movedIndices.contains($0) }.map { items[$0] }
        for move in moves.sorted(by: { ($0.to, $0.from) < ($1.to, $1.from) }) {
            result.insert(items[move.from], at: min(move.to, result.count))
        }
        return result
    }

    struct Variant: Sendable {
        var sku: String?
        var price = Money(minorUnits: 0, currency: .usd)
        var compareAtPrice: Money?
        var tracked = false
        var stock = 0
    }

    var title = ""
    var description = (html: "", text: "")
    var vendor = ""
    var category = ""
    var tags: [String] = []
    var isPublished = true
    var altTexts: [String] = []
    /// Where each image (by its position when read, from 1) goes.
    var imagePositions: [Int] = []
    var variants: [Variant] = []

    /// `current` with the fields in `changed` set from this edit; the others as they are.
    func applied(to current: ProductDraft, changed: Set<String>) -> ProductDraft {
        var next = current
        if changed.contains("title") { next.title = title }
        if changed.contains("description") {
            next.descriptionHTML = description.html
            next.descriptionText = description.text
        }
        if changed.contains("vendor") { next.vendor = vendor }
        if changed.contains("category") { next.categoryName = category.isEmpty ? nil : category }
        if changed.contains("tags") { next.tags = tags }
        if changed.contains("published") { next.isPublished = isPublished }
        for (index, alt) in altTexts.enumerated() where changed.contains("alt-\(index + 1)") && next.images.indices.contains(index) {
            next.images[index].altText = alt
        }
        if imagePositions.count == next.images.count {
            next.images = Self.reordered(next.images, moving: movedImages(changed: changed))
        }
        for (index, variant) in variants.enumerated() where next.variants.indices.contains(index) {
            let n = index + 1
            if changed.contains("sku-\(n)") { next.variants[index].sku = variant.sku }
            if changed.contains("price-\(n)") { next.variants[index].price = variant.price }
            if changed.contains("compare-\(n)") { next.variants[index].compareAtPrice = variant.compareAtPrice }
            if changed.contains("tracked-\(n)") || changed.contains("stock-\(n)") {
                let backorder = if case let .tracked(_, allows) = next.variants[index].inventory { allows } else { false }
                next.variants[index].inventory = variant.tracked ? .tracked(quantity: variant.stock, allowsBackorder: backorder) : .untracked
            }
        }
        return next
    }
}

extension AdminViews {
    /// A product form field's name for messages ("Price of variant 2").
    static func productFieldName(_ field: String, _ l10n: Localizer) -> String {
        let parts = field.split(separator: "-", maxSplits: 1).map(String.init)
        let number = parts.count == 2 ? parts[1] : ""
        return switch parts[0] {
        case "title": l10n(.adminFieldTitle)
        case "description": l10n(.adminFieldDescription)
        case "vendor": l10n(.adminFieldVendor)
        case "category": l10n(.adminFieldCategory)
        case "tags": l10n(.adminFieldTags)
        case "published": l10n(.adminVisibilityPublished)
        case "alt": l10n(.adminFieldAltText, ["number": number])
        case "position": l10n(.adminFieldImagePosition, ["number": number])
        case "sku": l10n(.adminFieldSKU) + " \(number)"
        case "price": l10n(.adminColumnPrice) + " \(number)"
        case "compare": l10n(.adminFieldCompareAt, ["currency": ""]).replacingOccurrences(of: " ()", with: "") + " \(number)"
        case "tracked", "stock": l10n(.adminColumnStock) + " \(number)"
        default: l10n(.adminProductVariants)
        }
    }

    static func products(_ found: CatalogListPage, filter: AdminProductFilter, categories: [ShopCore.Category], currency: Currency,
                         pageSize: Int, csrfToken: String, l10n: Localizer) -> Node {
        section(.class("stack")) {
            div(.class("admin-title-row")) {
                h1(.class("page-title")) { l10n(.adminProductsTitle) }
                nav(.class("admin-inline admin-export"), .aria("label", l10n(.adminProductsExport))) {
                    span(.class("muted small")) { l10n(.adminProductsExport) }
                    a(.class("button button-small"), .href(AdminRoute.productsExport(format: CatalogFormat.shopifyCSV.rawValue).path),
                      .attribute("download", "")) { "Shopify CSV" }
                    a(.class("button button-small"), .href(AdminRoute.productsExport(format: CatalogFormat.wooCommerceCSV.rawValue).path),
                      .attribute("download", "")) { "WooCommerce CSV" }
                    a(.class("button button-small"), .href(AdminRoute.productsExport(format: CatalogFormat.shoppableJSON.rawValue).path),
                      .attribute("download", "")) { "JSON" }
                }
                div(.class("admin-inline admin-export")) {
                    a(.class("button button-small"), .href(AdminRoute.productsImport.path)) { l10n(.adminProductsImport) }
                    a(.class("button button-small button-primary"), .href(AdminRoute.productNew.path)) { l10n(.adminProductsNew) }
                }
            }
            HTML.form(.class("form-card admin-filters"), .method("get"), .action(AdminRoute.products(AdminProductFilter()).path)) {
                FormField(label: l10n(.adminProductsSearch), name: "q", id: "q", type: "search", value: filter.text,
                          autocomplete: "off", required: false)
                div(.class("field")) {
                    label(.for("shown")) { l10n(.adminFilterVisibility) }
                    select(.name("shown"), .id("shown")) {
                        for visibility in CatalogListQuery.Visibility.allCases {
                            option(.value(visibility.rawValue), .selected(filter.visibility == visibility)) {
                                switch visibility {
                                case .all: l10n(.adminVisibilityAll)
                                case .published: l10n(.adminVisibilityPublished)
                                case .unpublished: l10n(.adminVisibilityUnpublished)
                                }
                            }
                        }
                    }
                }
                div(.class("field")) {
                    label(.for("category")) { l10n(.adminFilterCategory) }
                    select(.name("category"), .id("category")) {
                        option(.value(""), .selected(filter.category.isEmpty)) { l10n(.adminFilterAnyCategory) }
                        for category in categories {
                            option(.value(category.handle), .selected(filter.category == category.handle)) { category.name }
                        }
                    }
                }
                div(.class("admin-filter-buttons")) {
                    button(.type("submit"), .class("button button-primary")) { l10n(.adminFilterApply) }
                    a(.class("button"), .href(AdminRoute.products(AdminProductFilter()).path)) { l10n(.adminFilterClear) }
                }
            }
            if found.rows.isEmpty {
                div(.class("empty-state")) { p { l10n(.adminProductsEmpty) } }
            } else {
                pageRange(page: filter.page, pageSize: pageSize, shown: found.rows.count, total: found.total, l10n)
                HTML.form(.class("stack"), .method("post"), .action(AdminRoute.productsBulk.path)) {
                csrfInput(csrfToken)
                input(.type("hidden"), .name("return_to"), .value(AdminRoute.products(filter).path))
                div(.class("form-card admin-bulk")) {
                    div(.class("field")) {
                        label(.for("bulk-change")) { l10n(.adminBulkChange) }
                        select(.name("change"), .id("bulk-change")) {
                            option(.value("adjust-price")) { l10n(.adminBulkAdjustPrice) }
                            option(.value("set-price")) { l10n(.adminBulkSetPrice, ["currency": currency.code]) }
                            option(.value("set-stock")) { l10n(.adminBulkSetStock) }
                        }
                    }
                    FormField(label: l10n(.adminBulkValue), name: "value", id: "bulk-value", autocomplete: "off",
                              hint: l10n(.adminBulkHint))
                    button(.type("submit"), .class("button")) { l10n(.adminBulkApply) }
                }
                div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminProductsTitle))) {
                    table(.class("admin-table")) {
                        thead {
                            tr {
                                th(.scope("col")) { span(.class("visually-hidden")) { l10n(.adminBulkTick) } }
                                th(.scope("col")) { l10n(.adminColumnProduct) }
                                th(.scope("col")) { l10n(.adminColumnStatus) }
                                th(.scope("col")) { l10n(.adminFilterCategory) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnPrice) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnStock) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnVariants) }
                            }
                        }
                        tbody {
                            for row in found.rows {
                                tr(.data("product", row.handle)) {
                                    td {
                                        input(.type("checkbox"), .name("product"), .value(String(row.id.rawValue)),
                                              .aria("label", l10n(.adminBulkTick) + ": " + row.title))
                                        if let minor = row.lowestPriceMinor {
                                            input(.type("hidden"), .name(AdminApp.shownPricePrefix + row.handle), .value(String(minor)))
                                        }
                                    }
                                    td(.class("admin-wrap")) {
                                        a(.href(AdminRoute.product(row.id).path)) { strong { row.title } }
                                        br()
                                        span(.class("muted small")) { row.handle }
                                    }
                                    td {
                                        span(.class(row.isPublished ? "status-pill status-ok" : "status-pill status-muted")) {
                                            l10n(row.isPublished ? .adminVisibilityPublished : .adminVisibilityUnpublished)
                                        }
                                    }
                                    td { row.categoryName ?? "—" }
                                    td(.class("numeric")) {
                                        if let minor = row.lowestPriceMinor {
                                            let price = l10n.money(Money(minorUnits: minor, currency: currency))
                                            row.variantCount > 1 ? l10n(.adminPriceFrom, ["price": price]) : price
                                        } else {
                                            "—"
                                        }
                                    }
                                    td(.class("numeric")) { row.trackedStock.map { l10n.number($0) } ?? l10n(.adminStockUntracked) }
                                    td(.class("numeric")) { l10n.number(row.variantCount) }
                                }
                            }
                        }
                    }
                }
                }
                pager(page: filter.page, pageSize: pageSize, total: found.total, label: l10n(.adminProductsTitle), l10n) { page in
                    var other = filter
                    other.page = page
                    return AdminRoute.products(other).path
                }
            }
        }
    }

    static func productForm(_ form: AdminProductForm, id: Product.ID?, draft: ProductDraft, categories: [ShopCore.Category],
                            title: String, currency: Currency, csrfToken: String, l10n: Localizer) -> Node {
        let limits = CatalogAdminService.limits
        let names = AdminProductForm.fieldNames(variants: Int(form.value("variants")) ?? 0, images: Int(form.value("images")) ?? 0)
        return section(.class("stack admin-product")) {
            p {
                a(.href(AdminRoute.products(AdminProductFilter()).path)) { "← " + l10n(.adminProductBack) }
                if id != nil, draft.isPublished {
                    " · "
                    a(.href(SiteRoute.catalog(.product(handle: draft.handle, variant: nil)).path)) { l10n(.adminProductView) }
                }
            }
            h1(.class("page-title")) { title }
            HTML.form(.class("form-card campaign-form"), .method("post"),
                      .action(id.map { AdminRoute.productSave($0).path } ?? AdminRoute.productCreate.path), .boolean("novalidate")) {
                csrfInput(csrfToken)
                input(.type("hidden"), .name(AdminProductForm.typedInField), .value(l10n.language.rawValue))
                if id == nil, let key = form.creationKey {
                    input(.type("hidden"), .name(AdminProductForm.creationKeyField), .value(key))
                }
                if id != nil {
                    for name in names + ["variants", "images"] {
                        input(.type("hidden"), .name("was:\(name)"), .value(form.was[name] ?? ""))
                    }
                }
                if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                FormField(label: l10n(.adminFieldTitle), name: "title", id: "title", value: form.value("title"),
                          errors: form.errors("title"), autocomplete: "off", maxLength: limits.title)
                textArea("description", l10n(.adminFieldDescriptionHTML), value: form.value("description"),
                         errors: form.errors("description"), rows: 6)
                div(.class("admin-field-pair")) {
                    FormField(label: l10n(.adminFieldVendor), name: "vendor", id: "vendor", value: form.value("vendor"),
                              errors: form.errors("vendor"), autocomplete: "off", required: false, maxLength: limits.name)
                    div(.class(form.errors("category").isEmpty ? "field" : "field field-invalid")) {
                        label(.for("category")) { l10n(.adminFieldCategory) }
                        input(.type("text"), .name("category"), .id("category"), .value(form.value("category")), .autocomplete("off"),
                              .attribute("list", "category-names"), .maxlength(limits.name), .aria("describedby", "category-help"))
                        datalist(categories)
                        div(.id("category-help")) { fieldErrors(form.errors("category")) }
                    }
                }
                FormField(label: l10n(.adminFieldTags), name: "tags", id: "tags", value: form.value("tags"), errors: form.errors("tags"),
                          autocomplete: "off", hint: l10n(.adminFieldTagsHint), required: false)
                div(.class("field field-check")) {
                    label(.for("published")) {
                        input(.type("checkbox"), .name("published"), .id("published"), .value("1"), .checked(!form.value("published").isEmpty))
                        " " + l10n(.adminFieldPublished)
                    }
                }
                if !draft.images.isEmpty {
                    fieldset(.class("field admin-fieldset")) {
                        legend { l10n(.adminProductImages) }
                        for (index, image) in draft.images.enumerated() where index < (Int(form.value("images")) ?? 0) {
                            div(.class("admin-image-row")) {
                                img(.src(image.url), .alt(""), .width(64), .height(64), .loading("lazy"))
                                FormField(label: l10n(.adminFieldAltText, ["number": String(index + 1)]), name: "alt-\(index + 1)",
                                          id: "alt-\(index + 1)", value: form.value("alt-\(index + 1)"),
                                          errors: form.errors("alt-\(index + 1)"), autocomplete: "off", required: false,
                                          maxLength: limits.altText)
                                FormField(label: l10n(.adminFieldImagePosition, ["number": String(index + 1)]),
                                          name: "position-\(index + 1)", id: "position-\(index + 1)", type: "number",
                                          value: form.value("position-\(index + 1)"), errors: form.errors("position-\(index + 1)"),
                                          autocomplete: "off", required: false)
                            }
                        }
                    }
                }
                fieldset(.class("field admin-fieldset")) {
                    legend { l10n(.adminProductVariants) }
                    for (index, variant) in draft.variants.enumerated() where index < (Int(form.value("variants")) ?? 0) {
                        let n = index + 1
                        div(.class("admin-variant"), .data("variant", String(n))) {
                            p(.class("admin-variant-name")) {
                                strong { "\(n)." }
                                " " + (variant.optionValues.isEmpty ? draft.title : variant.optionValues.joined(separator: " / "))
                            }
                            div(.class("admin-field-pair")) {
                                FormField(label: l10n(.adminFieldSKU), name: "sku-\(n)", id: "sku-\(n)", value: form.value("sku-\(n)"),
                                          errors: form.errors("sku-\(n)"), autocomplete: "off", required: false, maxLength: limits.sku)
                                FormField(label: l10n(.adminFieldPrice, ["currency": currency.code]), name: "price-\(n)", id: "price-\(n)",
                                          value: form.value("price-\(n)"), errors: form.errors("price-\(n)"), autocomplete: "off")
                                FormField(label: l10n(.adminFieldCompareAt, ["currency": currency.code]), name: "compare-\(n)",
                                          id: "compare-\(n)", value: form.value("compare-\(n)"), errors: form.errors("compare-\(n)"),
                                          autocomplete: "off", required: false)
                                FormField(label: l10n(.adminFieldStock), name: "stock-\(n)", id: "stock-\(n)", value: form.value("stock-\(n)"),
                                          errors: form.errors("stock-\(n)"), autocomplete: "off", required: false)
                            }
                            div(.class("field field-check")) {
                                label(.for("tracked-\(n)")) {
                                    input(.type("checkbox"), .name("tracked-\(n)"), .id("tracked-\(n)"), .value("1"),
                                          .checked(!form.value("tracked-\(n)").isEmpty))
                                    " " + l10n(.adminFieldTracked)
                                }
                            }
                        }
                    }
                }
                button(.type("submit"), .class("button button-primary")) { l10n(id == nil ? .adminProductCreate : .adminProductSave) }
            }
        }
    }

    private static func datalist(_ categories: [ShopCore.Category]) -> Node {
        .element("datalist", [.id("category-names")], categories.map { option(.value($0.name)) })
    }
}
