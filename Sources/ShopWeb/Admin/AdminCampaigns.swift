import Foundation
import HTML
import HTTPServer
import ShopCore
import ShopStore

// Campaigns and voucher codes in the back office (issue #16, point 5): create, edit, schedule,
// pause, delete — with the rules of the campaigns file (`Campaign.validate`, one home) — and
// each code's orders and revenue. Every save goes through `CampaignStore.save`, which re-reads
// the set inside its transaction and refuses an edit of a campaign changed since its form was
// read (`revision`): two staff members never overwrite each other unknowingly, and the audit
// log records each change as theirs.

extension AdminApp {
    static func campaignsPage(_ context: inout AdminContext) throws -> Response {
        let campaigns = try context.environment.campaigns.all()
        let usage = try context.environment.dashboard?.voucherUsage() ?? [:]
        return context.page(title: context.l10n(.adminCampaignsTitle), nav: .campaigns,
                            AdminViews.campaigns(campaigns, usage: usage, now: context.now, csrfToken: context.maskedCSRFToken(),
                                                 l10n: context.l10n, timeZone: context.environment.timeZone))
    }

    static func campaignEditPage(_ context: inout AdminContext, id: Campaign.ID) throws -> Response {
        guard let campaign = try context.environment.campaigns.campaign(id) else { return context.errorPage(.notFound) }
        return try campaignForm(&context, editing: campaign,
                                form: AdminCampaignForm(campaign, language: context.l10n.language, timeZone: context.environment.timeZone))
    }

    static func campaignForm(_ context: inout AdminContext, editing: Campaign?, form: AdminCampaignForm,
                             status: HTTPStatus = .ok) throws -> Response {
        let categories = try context.environment.catalog.categories().map(\.category)
        let title = editing.map { context.l10n(.adminCampaignEditTitle, ["title": $0.title.defaultText]) }
            ?? context.l10n(.adminCampaignNew)
        return context.page(title: title, nav: .campaigns,
                            AdminViews.campaignForm(form, editing: editing, categories: categories, title: title,
                                                    currency: context.environment.currency, csrfToken: context.maskedCSRFToken(),
                                                    l10n: context.l10n, timeZone: context.environment.timeZone),
                            status: status)
    }

    /// Creates (`id` nil) or saves a campaign from the form; a form with mistakes comes back
    /// with each one under its field (422), nothing stored.
    static func campaignSave(_ context: inout AdminContext, id: Campaign.ID?) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let environment = context.environment
        let store = environment.campaigns
        var existing: Campaign?
        if let id {
            guard let stored = try store.campaign(id) else { return context.errorPage(.notFound) }
            existing = stored
        }
        var form = AdminCampaignForm(request: context.request)
        let l10n = context.l10n
        let parsed = form.campaign(id: id, existing: existing, currency: environment.currency, language: l10n.language,
                                   timeZone: environment.timeZone, l10n: l10n)
        guard let campaign = parsed else {
            form.alert = l10n(.adminCampaignErrorForm)
            return try campaignForm(&context, editing: existing, form: form, status: .unprocessableContent)
        }
        // A new campaign has no revision; an edit carries the one its form was read at (a form
        // without one is refused as stale rather than saved over whatever is there).
        let revision = id == nil ? nil : form.value("revision")
        do {
            _ = try store.save(campaign, revision: revision, by: .staff(member.email), now: context.now)
        } catch CampaignStoreError.idTaken where id == nil && (try? store.campaign(campaign.id)) == campaign {
            // The same new campaign sent twice (a double click, a resend): the first send made it
            // exactly as asked, so this one is answered as that one was (a fresh tester's second
            // send said "Another campaign has this id" for the campaign they had just made).
        } catch let error as CampaignStoreError {
            switch error {
            case .idTaken: form.errors["id", default: []].append(l10n(.adminCampaignErrorIDTaken))
            case .duplicateVoucherCode: form.errors["code", default: []].append(l10n(.adminCampaignErrorCodeTaken))
            case .emptyTimeWindow: form.errors["ends", default: []].append(l10n(.adminCampaignErrorEnds))
            case .changedSinceRead, .duplicateID: form.alert = l10n(.adminCampaignChanged)
            case .campaignNotFound: return context.errorPage(.notFound)
            }
            if form.alert == nil { form.alert = l10n(.adminCampaignErrorForm) }
            return try campaignForm(&context, editing: existing, form: form, status: .conflict)
        }
        environment.log("campaign \(campaign.id.rawValue) \(id == nil ? "created" : "saved") by \(member.email)")
        var done = l10n(id == nil ? .adminCampaignCreated : .adminCampaignSaved, ["title": campaign.title.defaultText])
        // Handles no published product has: saved (the catalog may come later), but said.
        let missing = try campaign.missing(from: environment.catalog).products
        if !missing.isEmpty {
            done += " " + l10n(.adminCampaignMissingProducts, ["handles": missing.map { "“\($0)”" }.joined(separator: ", ")])
        }
        context.setFlash(done)
        return .redirect(to: AdminRoute.campaigns.path)
    }

    static func campaignPause(_ context: inout AdminContext, id: Campaign.ID, paused: Bool) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let store = context.environment.campaigns
        guard var campaign = try store.campaign(id) else { return context.errorPage(.notFound) }
        let revision = context.request.formValue("revision") ?? ""
        let title = campaign.title.defaultText
        // Pressed twice, or by two people: the campaign is already as asked.
        if campaign.isPaused == paused {
            context.setFlash(context.l10n(paused ? .adminCampaignPausedDone : .adminCampaignResumedDone, ["title": title]))
            return .redirect(to: AdminRoute.campaigns.path)
        }
        campaign.isPaused = paused
        do {
            _ = try store.save(campaign, revision: revision, by: .staff(member.email), now: context.now)
            context.setFlash(context.l10n(paused ? .adminCampaignPausedDone : .adminCampaignResumedDone, ["title": title]))
        } catch CampaignStoreError.changedSinceRead {
            context.setFlash(context.l10n(.adminCampaignChanged), error: true)
        } catch CampaignStoreError.campaignNotFound {
            return context.errorPage(.notFound)
        }
        return .redirect(to: AdminRoute.campaigns.path)
    }

    static func campaignDelete(_ context: inout AdminContext, id: Campaign.ID) throws -> Response {
        guard let member = context.member else { return context.errorPage(.forbidden) }
        let store = context.environment.campaigns
        guard let campaign = try store.campaign(id) else {
            // Deleted already (a double click): the list says what there is.
            return .redirect(to: AdminRoute.campaigns.path)
        }
        do {
            _ = try store.delete(id, revision: context.request.formValue("revision") ?? "", by: .staff(member.email), now: context.now)
            context.setFlash(context.l10n(.adminCampaignDeleted, ["title": campaign.title.defaultText]))
            context.environment.log("campaign \(id.rawValue) deleted by \(member.email)")
            return .redirect(to: AdminRoute.campaigns.path)
        } catch CampaignStoreError.changedSinceRead {
            context.setFlash(context.l10n(.adminCampaignChanged), error: true)
            return .redirect(to: AdminRoute.campaignEdit(id).path)
        } catch CampaignStoreError.campaignNotFound {
            return .redirect(to: AdminRoute.campaigns.path)
        }
    }
}

/// The campaign form's values as typed (so a form with mistakes comes back as it was sent), its
/// mistakes by field, and the reading of it into a `Campaign`.
struct AdminCampaignForm: Sendable {
    var values: [String: String] = [:]
    var errors: [String: [String]] = [:]
    var alert: String?

    static let fields = ["id", "title", "description", "image", "starts", "ends", "discount", "percent", "amount", "target",
                         "category", "products", "minimum", "code", "limit", "paused", "revision"]

    func value(_ name: String) -> String { values[name] ?? "" }
    func errors(_ name: String) -> [String] { errors[name] ?? [] }

    init(values: [String: String] = [:]) { self.values = values }

    init(request: Request) {
        for field in Self.fields { values[field] = request.formValue(field) ?? "" }
    }

    /// A new campaign's form: from the next whole hour for a week, a percentage off the cart.
    static func blank(_ context: AdminContext) -> AdminCampaignForm {
        let calendar = Calendar.gregorian(context.environment.timeZone)
        let now = context.now
        let hour = calendar.dateInterval(of: .hour, for: now).map { $0.end } ?? now
        let week = calendar.date(byAdding: .day, value: 7, to: hour) ?? hour
        let zone = context.environment.timeZone
        return AdminCampaignForm(values: ["starts": AdminDates.dateTimeText(hour, timeZone: zone),
                                          "ends": AdminDates.dateTimeText(week, timeZone: zone),
                                          "discount": "percentage", "target": "cart"])
    }

    /// The form of a stored campaign, with its revision.
    init(_ campaign: Campaign, language: Language, timeZone: TimeZone) {
        var values = ["id": campaign.id.rawValue, "title": campaign.title.defaultText, "description": campaign.description.defaultText,
                      "image": campaign.imageURL ?? "", "starts": AdminDates.dateTimeText(campaign.startsAt, timeZone: timeZone),
                      "ends": AdminDates.dateTimeText(campaign.endsAt, timeZone: timeZone),
                      "minimum": campaign.minimumSubtotal?.typedString(language: language) ?? "",
                      "code": campaign.voucherCode?.normalized ?? "", "limit": campaign.usageLimitPerAccount.map(String.init) ?? "",
                      "paused": campaign.isPaused ? "1" : "", "revision": CampaignStore.revision(of: campaign)]
        switch campaign.discount {
        case let .percentage(percent): values["discount"] = "percentage"; values["percent"] = String(percent)
        case let .fixedAmount(amount): values["discount"] = "fixed"; values["amount"] = amount.typedString(language: language)
        }
        switch campaign.target {
        case .wholeCart: values["target"] = "cart"
        case let .category(handle): values["target"] = "category"; values["category"] = handle
        case let .products(handles): values["target"] = "products"; values["products"] = handles.joined(separator: "\n")
        }
        self.values = values
    }

    /// The campaign the form describes, or nil with `errors` filled in (every mistake at once,
    /// each under its field). The typed values are read here (amounts in the staff member's
    /// language, times in the shop's zone); the rules are `Campaign.validate`'s.
    /// - Parameters:
    ///   - id: the campaign being edited (its id cannot change), or nil for a new one.
    ///   - existing: the stored campaign, whose title and description translations are kept.
    mutating func campaign(id: Campaign.ID?, existing: Campaign?, currency: Currency, language: Language,
                           timeZone: TimeZone, l10n: Localizer) -> Campaign? {
        func fail(_ field: String, _ message: String) { errors[field, default: []].append(message) }
        let example = Money(minorUnits: 1999, currency: currency).typedString(language: language)
        let idText = id?.rawValue ?? value("id").trimmedOfWhiteSpace.lowercased()
        if id == nil { values["id"] = idText }
        let title = value("title").trimmedOfWhiteSpace
        if title.isEmpty { fail("title", l10n(.adminCampaignErrorTitle)) }
        let image = value("image").trimmedOfWhiteSpace
        // A year outside `campaignYears` is a typo (a fresh tester's 0001 was saved as a start).
        func date(_ field: String) -> Date? {
            let yearText = { l10n(.adminCampaignErrorYear, ["first": String(AdminDates.campaignYears.lowerBound),
                                                             "last": String(AdminDates.campaignYears.upperBound)]) }
            let text = value(field)
            let date: Date
            switch AdminDates.dateTime(text, timeZone: timeZone) {
            case let .instant(instant)?:
                date = instant
            case .skipped?:
                fail(field, l10n(.adminCampaignErrorSkippedTime, ["zone": timeZone.identifier]))
                return nil
            case nil:
                // `10000-01-01T00:00` is a date with a year too long, not a missing date.
                let year = text.trimmedOfWhiteSpace.prefix { $0 != "-" }
                fail(field, year.count > 4 && year.allSatisfy { $0.isASCII && $0.isNumber } && text.contains("-")
                     ? yearText() : l10n(.adminCampaignErrorDate))
                return nil
            }
            guard AdminDates.campaignYears.contains(Calendar.gregorian(timeZone).component(.year, from: date)) else {
                fail(field, yearText())
                return nil
            }
            return date
        }
        let starts = date("starts"), ends = date("ends")

        // The form's selects send only these values; anything else (a crafted post, found by a
        // fresh tester) is refused under its field, not read as the default.
        var discount: Discount?
        switch value("discount") {
        case "fixed":
            switch AdminAmounts.read(value("amount"), currency: currency, l10n, else: .adminCampaignErrorAmount) {
            case let .success(amount) where amount.minorUnits <= VariantDraft.maximumPriceMinorUnits: discount = .fixedAmount(amount)
            case .success: fail("amount", l10n(.adminCampaignErrorAmount, ["example": example]))
            case let .failure(refusal): fail("amount", refusal.message)
            }
        case "percentage", "":
            if let percent = Int(value("percent").trimmedOfWhiteSpace) {
                discount = .percentage(percent)
            } else {
                fail("percent", l10n(.adminCampaignErrorPercent))
            }
        default:
            fail("discount", l10n(.adminCampaignErrorChoice))
        }

        var target = DiscountTarget.wholeCart
        switch value("target") {
        case "cart", "": target = .wholeCart
        case "category": target = .category(handle: value("category").trimmedOfWhiteSpace)
        case "products":
            let handles = value("products").split(whereSeparator: { $0 == "," || $0.isNewline })
                .map { Handle.make(from: String($0).trimmedOfWhiteSpace) }.filter { !$0.isEmpty }
            target = .products(handles: handles)
        default: fail("target", l10n(.adminCampaignErrorChoice))
        }

        var minimum: Money?
        let minimumText = value("minimum").trimmedOfWhiteSpace
        if !minimumText.isEmpty {
            switch AdminAmounts.read(minimumText, currency: currency, l10n, else: .adminCampaignErrorMinimum) {
            case let .success(amount): minimum = amount
            case let .failure(refusal): fail("minimum", refusal.message)
            }
        }
        var code: VoucherCode?
        let codeText = value("code").trimmedOfWhiteSpace
        if !codeText.isEmpty {
            if let valid = VoucherCode(codeText) { code = valid } else { fail("code", l10n(.adminCampaignErrorCode)) }
        }
        var limit: Int?
        let limitText = value("limit").trimmedOfWhiteSpace
        if !limitText.isEmpty {
            if let number = Int(limitText) { limit = number } else { fail("limit", l10n(.adminCampaignErrorLimit)) }
        }

        // The core's rules, each under its field, as long as what they look at was readable.
        let campaign = Campaign(
            id: Campaign.ID(idText),
            title: LocalizedText(title, translations: existing?.title.translations ?? [:]),
            description: LocalizedText(value("description").trimmedOfWhiteSpace, translations: existing?.description.translations ?? [:]),
            imageURL: image.isEmpty ? nil : image, startsAt: starts ?? .distantPast, endsAt: ends ?? .distantFuture,
            discount: discount ?? .percentage(1), target: target, minimumSubtotal: minimum, voucherCode: code,
            usageLimitPerAccount: limit, isPaused: !value("paused").isEmpty)
        // Every mistake, not only the first.
        for problem in campaign.problems(currency: currency) {
            let (field, message) = Self.message(problem, target: campaign.target, l10n: l10n, example: example)
            fail(field, message)
        }
        return errors.isEmpty ? campaign : nil
    }

    /// The form field and message of a broken rule.
    static func message(_ error: CampaignValidationError, target: DiscountTarget, l10n: Localizer,
                        example: String) -> (String, String) {
        switch error {
        case .percentageOutOfRange: ("percent", l10n(.adminCampaignErrorPercent))
        case .fixedAmountNotPositive, .currencyMismatch(.discount, _, _): ("amount", l10n(.adminCampaignErrorAmount, ["example": example]))
        case .currencyMismatch, .minimumSubtotalNotPositive: ("minimum", l10n(.adminCampaignErrorMinimum, ["example": example]))
        case .endsNotAfterStart: ("ends", l10n(.adminCampaignErrorEnds))
        case .usageLimitNotPositive: ("limit", l10n(.adminCampaignErrorLimit))
        case .emptyTarget:
            if case .category = target { ("category", l10n(.adminCampaignErrorCategory)) } else { ("products", l10n(.adminCampaignErrorProducts)) }
        case let .repeatedProduct(handle): ("products", l10n(.adminCampaignErrorProductTwice, ["handle": handle]))
        case .invalidID: ("id", l10n(.adminCampaignErrorID))
        case .imageNotSitePathOrWebURL: ("image", l10n(.adminCampaignErrorImage))
        case let .textTooLong(field, maximum):
            (field == .title ? "title" : "description", l10n(.adminProductErrorText, ["limit": l10n.number(maximum)]))
        }
    }
}

extension AdminDates {
    /// The years a campaign's start and end may fall in.
    static let campaignYears = 2000...9999

    /// The instant of `YYYY-MM-DDTHH:MM` (a `datetime-local` field; seconds allowed) in `timeZone`.
    /// nil when the text is no date and time.
    static func dateTime(_ text: String, timeZone: TimeZone) -> LocalTime? {
        let trimmed = text.trimmedOfWhiteSpace
        let parts = trimmed.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2, let day = day(parts[0], timeZone: timeZone) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        let second = clock.count == 3 ? Int(clock[2]) : 0
        guard let second, (0..<60).contains(second) else { return nil }
        let calendar = Calendar.gregorian(timeZone)
        var components = calendar.dateComponents([.year, .month, .day], from: day)
        components.hour = hour
        components.minute = minute
        components.second = second
        guard let date = calendar.date(from: components) else { return nil }
        // A time the clocks skip (02:30 on a spring-forward day) comes back as another one
        // (03:30): it names no instant, and is refused rather than moved without a word.
        let shown = calendar.dateComponents([.hour, .minute, .second], from: date)
        guard shown.hour == hour, shown.minute == minute, shown.second == second else { return .skipped }
        return .instant(date)
    }

    /// What a `datetime-local` field's text names in a time zone.
    enum LocalTime: Equatable {
        case instant(Date)
        /// A real date and time the zone's clocks skip (daylight saving time starting).
        case skipped
    }

    /// `date` as a `datetime-local` field shows it in `timeZone`: `2026-12-01T09:00`.
    static func dateTimeText(_ date: Date, timeZone: TimeZone) -> String {
        let parts = Calendar.gregorian(timeZone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let text = String(value ?? 0); return text.count < 2 ? "0" + text : text }
        var text = "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute))"
        if let second = parts.second, second != 0 { text += ":" + two(second) }
        return text
    }
}

extension AdminViews {
    static func campaignStateText(_ state: CampaignState, _ l10n: Localizer) -> String {
        switch state {
        case .active: l10n(.adminCampaignStateActive)
        case .scheduled: l10n(.adminCampaignStateScheduled)
        case .ended: l10n(.adminCampaignStateEnded)
        case .paused: l10n(.adminCampaignStatePaused)
        }
    }

    static func campaignStatePill(_ state: CampaignState, _ l10n: Localizer) -> Node {
        let style = switch state {
        case .active: "status-ok"
        case .scheduled: "status-warn"
        case .ended, .paused: "status-muted"
        }
        return span(.class("status-pill \(style)"), .data("state", state.rawValue)) { campaignStateText(state, l10n) }
    }

    static func discountText(_ discount: Discount, _ l10n: Localizer) -> String {
        switch discount {
        case let .percentage(percent): l10n(.adminCampaignPercentOff, ["percent": String(percent)])
        case let .fixedAmount(amount): l10n(.adminCampaignAmountOff, ["amount": l10n.money(amount)])
        }
    }

    static func targetText(_ target: DiscountTarget, _ l10n: Localizer) -> String {
        switch target {
        case .wholeCart: l10n(.adminTargetCart)
        case let .category(handle): l10n(.adminTargetCategory) + ": " + handle
        case let .products(handles): l10n(.adminTargetProducts) + ": " + handles.joined(separator: ", ")
        }
    }

    static func campaigns(_ campaigns: [Campaign], usage: [String: VoucherUsage], now: Date, csrfToken: String,
                          l10n: Localizer, timeZone: TimeZone) -> Node {
        section(.class("stack")) {
            div(.class("admin-title-row")) {
                h1(.class("page-title")) { l10n(.adminCampaignsTitle) }
                a(.class("button button-primary"), .href(AdminRoute.campaignNew.path)) { l10n(.adminCampaignNew) }
            }
            p(.class("muted small")) { l10n(.adminCampaignsIntro) }
            if campaigns.isEmpty {
                div(.class("empty-state")) { p { l10n(.adminCampaignsEmpty) } }
            } else {
                div(.class("admin-table-wrap"), .tabindex(0), .role("region"), .aria("label", l10n(.adminCampaignsTitle))) {
                    table(.class("admin-table")) {
                        thead {
                            tr {
                                th(.scope("col")) { l10n(.adminColumnCampaign) }
                                th(.scope("col")) { l10n(.adminColumnStatus) }
                                th(.scope("col")) { l10n(.adminColumnDiscount) }
                                th(.scope("col")) { l10n(.adminColumnWindow) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnUses) }
                                th(.scope("col"), .class("numeric")) { l10n(.adminColumnRevenue) }
                                th(.scope("col")) { l10n(.adminCampaignPause) }
                            }
                        }
                        tbody {
                            for campaign in campaigns {
                                campaignRow(campaign, usage: campaign.voucherCode.flatMap { usage[$0.normalized] }, now: now,
                                            csrfToken: csrfToken, l10n: l10n, timeZone: timeZone)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func campaignRow(_ campaign: Campaign, usage: VoucherUsage?, now: Date, csrfToken: String, l10n: Localizer,
                                    timeZone: TimeZone) -> Node {
        let revenue = usage.flatMap { usage in (try? Currency(code: usage.currency)).map { Money(minorUnits: usage.revenueMinor, currency: $0) } }
        let given = usage.flatMap { usage in (try? Currency(code: usage.currency)).map { Money(minorUnits: usage.discountMinor, currency: $0) } }
        return tr(.data("campaign", campaign.id.rawValue)) {
            td(.class("admin-wrap")) {
                a(.href(AdminRoute.campaignEdit(campaign.id).path)) { strong { campaign.title.defaultText } }
                br()
                span(.class("muted small")) { campaign.id.rawValue + " · " }
                if let voucher = campaign.voucherCode {
                    code(.class("voucher-code"), .aria("label", l10n(.adminColumnCode) + " " + voucher.normalized)) { voucher.normalized }
                } else {
                    span(.class("muted small")) { l10n(.adminCampaignNoCode) }
                }
            }
            td { campaignStatePill(campaign.state(at: now), l10n) }
            td(.class("admin-wrap")) {
                discountText(campaign.discount, l10n)
                br()
                span(.class("muted small")) { targetText(campaign.target, l10n) }
            }
            td {
                l10n.date(campaign.startsAt, timeZone: timeZone) + " " + l10n.time(campaign.startsAt, timeZone: timeZone)
                br()
                "– " + l10n.date(campaign.endsAt, timeZone: timeZone) + " " + l10n.time(campaign.endsAt, timeZone: timeZone)
            }
            td(.class("numeric"), .data("uses", String(usage?.orders ?? 0))) { l10n.number(usage?.orders ?? 0) }
            td(.class("numeric")) {
                if let revenue, let given {
                    l10n.money(revenue)
                    br()
                    span(.class("muted small")) { l10n(.adminCampaignDiscountGiven, ["amount": l10n.money(given)]) }
                } else {
                    span(.class("muted")) { "–" }
                }
            }
            td {
                let route = campaign.isPaused ? AdminRoute.campaignResume(campaign.id) : AdminRoute.campaignPause(campaign.id)
                let label = l10n(campaign.isPaused ? .adminCampaignResume : .adminCampaignPause)
                HTML.form(.method("post"), .action(route.path)) {
                    csrfInput(csrfToken)
                    input(.type("hidden"), .name("revision"), .value(CampaignStore.revision(of: campaign)))
                    button(.type("submit"), .class("button button-small"),
                           .aria("label", label + ": " + campaign.title.defaultText)) { label }
                }
            }
        }
    }

    static func campaignForm(_ form: AdminCampaignForm, editing: Campaign?, categories: [ShopCore.Category], title: String,
                             currency: Currency, csrfToken: String, l10n: Localizer, timeZone: TimeZone) -> Node {
        let action = editing.map { AdminRoute.campaignSave($0.id) } ?? AdminRoute.campaignCreate
        let zoneHint = l10n(.adminFieldWindowHint, ["zone": timeZone.identifier])
        let example = Money(minorUnits: 1999, currency: currency).typedString(language: l10n.language)
        return section(.class("stack admin-campaign")) {
            p { a(.href(AdminRoute.campaigns.path)) { "← " + l10n(.adminCampaignBack) } }
            h1(.class("page-title")) { title }
            HTML.form(.class("form-card campaign-form"), .method("post"), .action(action.path), .boolean("novalidate")) {
                csrfInput(csrfToken)
                input(.type("hidden"), .name("revision"), .value(form.value("revision")))
                if let alert = form.alert { p(.class("form-alert"), .role("alert")) { alert } }
                if editing == nil {
                    FormField(label: l10n(.adminFieldCampaignID), name: "id", id: "id", value: form.value("id"), errors: form.errors("id"),
                              autocomplete: "off", hint: l10n(.adminFieldCampaignIDHint), maxLength: Campaign.maximumIDLength)
                }
                FormField(label: l10n(.adminFieldTitle), name: "title", id: "title", value: form.value("title"),
                          errors: form.errors("title"), autocomplete: "off", maxLength: 200)
                textArea("description", l10n(.adminFieldDescription), value: form.value("description"), errors: form.errors("description"),
                         rows: 3)
                FormField(label: l10n(.adminFieldImage), name: "image", id: "image", value: form.value("image"),
                          errors: form.errors("image"), autocomplete: "off", hint: l10n(.adminFieldImageHint), required: false)
                if let editing, !(editing.title.translations.isEmpty && editing.description.translations.isEmpty) {
                    p(.class("muted small")) { l10n(.adminCampaignTranslationsKept) }
                }
                div(.class("admin-field-pair")) {
                    FormField(label: l10n(.adminFieldStarts), name: "starts", id: "starts", type: "datetime-local",
                              value: form.value("starts"), errors: form.errors("starts"), autocomplete: "off", hint: zoneHint)
                    FormField(label: l10n(.adminFieldEnds), name: "ends", id: "ends", type: "datetime-local",
                              value: form.value("ends"), errors: form.errors("ends"), autocomplete: "off", hint: zoneHint)
                }
                fieldset(.class("field choice-group")) {
                    legend { l10n(.adminFieldDiscountType) }
                    radio("discount", "percentage", l10n(.adminDiscountPercentage), form)
                    radio("discount", "fixed", l10n(.adminDiscountFixed), form)
                    if !form.errors("discount").isEmpty { ul(.class("field-errors")) { for error in form.errors("discount") { li { error } } } }
                }
                div(.class("admin-field-pair")) {
                    div(.class("only-percentage")) {
                        FormField(label: l10n(.adminFieldPercent), name: "percent", id: "percent", type: "text", value: form.value("percent"),
                                  errors: form.errors("percent"), autocomplete: "off", required: false)
                    }
                    div(.class("only-fixed")) {
                        FormField(label: l10n(.adminFieldAmount, ["currency": currency.code]), name: "amount", id: "amount",
                                  value: form.value("amount"), errors: form.errors("amount"), autocomplete: "off",
                                  hint: l10n(.adminFieldAmountHint, ["example": example]), required: false)
                    }
                }
                fieldset(.class("field choice-group")) {
                    legend { l10n(.adminFieldAppliesTo) }
                    radio("target", "cart", l10n(.adminTargetCart), form)
                    radio("target", "category", l10n(.adminTargetCategory), form)
                    radio("target", "products", l10n(.adminTargetProducts), form)
                    if !form.errors("target").isEmpty { ul(.class("field-errors")) { for error in form.errors("target") { li { error } } } }
                }
                div(.class(form.errors("category").isEmpty ? "field only-category" : "field field-invalid only-category")) {
                    label(.for("category")) { l10n(.adminFieldCategory) }
                    select(.name("category"), .id("category"), .aria("describedby", "category-help")) {
                        option(.value(""), .selected(form.value("category").isEmpty)) { "—" }
                        for category in categories {
                            option(.value(category.handle), .selected(form.value("category") == category.handle)) { category.name }
                        }
                        let chosen = form.value("category")
                        if !chosen.isEmpty, !categories.contains(where: { $0.handle == chosen }) {
                            option(.value(chosen), .selected(true)) { chosen }
                        }
                    }
                    div(.id("category-help")) { fieldErrors(form.errors("category")) }
                }
                div(.class("only-products")) {
                    textArea("products", l10n(.adminFieldProducts), value: form.value("products"), errors: form.errors("products"),
                             rows: 3, hint: l10n(.adminFieldProductsHint))
                }
                div(.class("admin-field-pair")) {
                    FormField(label: l10n(.adminFieldMinimum, ["currency": currency.code]), name: "minimum", id: "minimum",
                              value: form.value("minimum"), errors: form.errors("minimum"), autocomplete: "off",
                              hint: l10n(.adminFieldLeaveEmpty), required: false)
                    FormField(label: l10n(.adminFieldLimit), name: "limit", id: "limit", type: "text", value: form.value("limit"),
                              errors: form.errors("limit"), autocomplete: "off", hint: l10n(.adminFieldLeaveEmpty), required: false)
                }
                FormField(label: l10n(.adminFieldCode), name: "code", id: "code", value: form.value("code"), errors: form.errors("code"),
                          autocomplete: "off", hint: l10n(.adminFieldCodeHint), required: false, maxLength: 40)
                div(.class("field field-check")) {
                    label(.for("paused")) {
                        input(.type("checkbox"), .name("paused"), .id("paused"), .value("1"), .checked(!form.value("paused").isEmpty))
                        " " + l10n(.adminFieldPaused)
                    }
                }
                button(.type("submit"), .class("button button-primary")) {
                    l10n(editing == nil ? .adminCampaignCreate : .adminCampaignSave)
                }
            }
            if let editing {
                HTML.form(.class("form-card"), .method("post"), .action(AdminRoute.campaignDelete(editing.id).path)) {
                    csrfInput(csrfToken)
                    input(.type("hidden"), .name("revision"), .value(CampaignStore.revision(of: editing)))
                    p(.class("muted small")) { l10n(.adminCampaignDeleteHint) }
                    button(.type("submit"), .class("button button-danger")) { l10n(.adminCampaignDelete) }
                }
            }
        }
    }

    private static func radio(_ name: String, _ value: String, _ label: String, _ form: AdminCampaignForm) -> Node {
        HTML.label(.class("choice")) {
            input(.type("radio"), .name(name), .id("\(name)-\(value)"), .value(value), .checked(form.value(name) == value))
            " " + label
        }
    }

    /// A labelled `<textarea>` with its hint and errors, as `FormField` is for inputs.
    static func textArea(_ name: String, _ label: String, value: String, errors: [String], rows: Int, hint: String? = nil) -> Node {
        div(.class(errors.isEmpty ? "field" : "field field-invalid")) {
            HTML.label(.for(name)) { label }
            textarea(.name(name), .id(name), .rows(rows), .aria("describedby", "\(name)-help"),
                     .aria("invalid", errors.isEmpty ? "false" : "true")) { value }
            div(.id("\(name)-help")) {
                if let hint { p(.class("field-hint")) { hint } }
                fieldErrors(errors)
            }
        }
    }

    static func fieldErrors(_ errors: [String]) -> Node {
        if errors.isEmpty { return .empty }
        return ul(.class("field-errors")) { for error in errors { li { error } } }
    }
}
