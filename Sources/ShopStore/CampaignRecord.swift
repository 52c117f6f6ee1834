public import Foundation
public import ShopCore

/// A campaign as the columns of a `campaigns` row — the same columns on every engine (SQLite's
/// `ShopSchema` 5 and 18, PostgreSQL's `PostgresSchema` 5) — so what a campaign is stored as,
/// and which stored values are not a campaign, has one home above the engines.
///
/// Times are Unix seconds (a campaign comes back rounded down to the second); amounts minor
/// units with their ISO 4217 code; a `.products` target is a JSON array of handles; a title's
/// and description's translations a JSON object by language code, nil when there are none.
public struct CampaignRecord: Equatable, Sendable {
    public var id: String
    public var title: String
    public var description: String
    public var imageURL: String?
    public var startsAt: Int64
    public var endsAt: Int64
    public var discountPercent: Int64?
    public var discountAmount: Int64?
    public var discountCurrency: String?
    /// `cart`, `category` or `products`.
    public var target: String
    public var targetCategory: String?
    public var targetProducts: String?
    public var minimumSubtotal: Int64?
    public var minimumCurrency: String?
    /// Upper case (`VoucherCode.normalized`).
    public var voucherCode: String?
    public var usageLimitPerAccount: Int64?
    public var titleTranslations: String?
    public var descriptionTranslations: String?
    /// `Campaign.isPaused` (migration 31).
    public var paused: Bool

    /// The columns in the order of ``values`` and of a row read with ``CampaignRecord/columns``.
    public static let columns = [
        "id", "title", "description", "image_url", "starts_at", "ends_at", "discount_percent", "discount_amount",
        "discount_currency", "target", "target_category", "target_products", "minimum_subtotal", "minimum_currency",
        "voucher_code", "usage_limit_per_account", "title_translations", "description_translations", "paused",
    ]

    /// The columns as both engines bind them, in ``columns``' order.
    public var values: [StoredValue] {
        [.text(id), .text(title), .text(description), StoredValue(imageURL), .integer(startsAt), .integer(endsAt),
         StoredValue(discountPercent), StoredValue(discountAmount), StoredValue(discountCurrency), .text(target),
         StoredValue(targetCategory), StoredValue(targetProducts), StoredValue(minimumSubtotal), StoredValue(minimumCurrency),
         StoredValue(voucherCode), StoredValue(usageLimitPerAccount), StoredValue(titleTranslations),
         StoredValue(descriptionTranslations), .bool(paused)]
    }

    /// The columns of a row read with ``columns`` starting at column `first`.
    public init(row: some StoredRow, from first: Int) throws {
        self.init(
            id: try row.string(first), title: try row.string(first + 1), description: try row.string(first + 2),
            imageURL: try row.optionalString(first + 3), startsAt: try row.int64(first + 4), endsAt: try row.int64(first + 5),
            discountPercent: try row.optionalInt64(first + 6), discountAmount: try row.optionalInt64(first + 7),
            discountCurrency: try row.optionalString(first + 8), target: try row.string(first + 9),
            targetCategory: try row.optionalString(first + 10), targetProducts: try row.optionalString(first + 11),
            minimumSubtotal: try row.optionalInt64(first + 12), minimumCurrency: try row.optionalString(first + 13),
            voucherCode: try row.optionalString(first + 14), usageLimitPerAccount: try row.optionalInt64(first + 15),
            titleTranslations: try row.optionalString(first + 16), descriptionTranslations: try row.optionalString(first + 17),
            paused: try row.bool(first + 18))
    }

    /// A stored value that is not part of any campaign: the column it is in.
    public struct CorruptColumn: Error, Equatable, Sendable {
        public var column: String
    }

    /// The columns as read from a row, in ``columns``' order.
    public init(id: String, title: String, description: String, imageURL: String?, startsAt: Int64, endsAt: Int64,
                discountPercent: Int64?, discountAmount: Int64?, discountCurrency: String?, target: String,
                targetCategory: String?, targetProducts: String?, minimumSubtotal: Int64?, minimumCurrency: String?,
                voucherCode: String?, usageLimitPerAccount: Int64?, titleTranslations: String?,
                descriptionTranslations: String?, paused: Bool = false) {
        self.id = id
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.discountPercent = discountPercent
        self.discountAmount = discountAmount
        self.discountCurrency = discountCurrency
        self.target = target
        self.targetCategory = targetCategory
        self.targetProducts = targetProducts
        self.minimumSubtotal = minimumSubtotal
        self.minimumCurrency = minimumCurrency
        self.voucherCode = voucherCode
        self.usageLimitPerAccount = usageLimitPerAccount
        self.titleTranslations = titleTranslations
        self.descriptionTranslations = descriptionTranslations
        self.paused = paused
    }

    /// The columns of `campaign`.
    public init(_ campaign: Campaign) {
        var percent: Int64?
        var amount: Money?
        switch campaign.discount {
        case let .percentage(value): percent = Int64(value)
        case let .fixedAmount(value): amount = value
        }
        let (target, category, products): (String, String?, String?) = switch campaign.target {
        case .wholeCart: ("cart", nil, nil)
        case let .category(handle): ("category", handle, nil)
        case let .products(handles): ("products", nil, JSONStringArray.encode(handles))
        }
        self.init(id: campaign.id.rawValue, title: campaign.title.defaultText, description: campaign.description.defaultText,
                  imageURL: campaign.imageURL, startsAt: StoredTime.unixSeconds(campaign.startsAt),
                  endsAt: StoredTime.unixSeconds(campaign.endsAt), discountPercent: percent,
                  discountAmount: amount?.minorUnits, discountCurrency: amount?.currency.code, target: target,
                  targetCategory: category, targetProducts: products,
                  minimumSubtotal: campaign.minimumSubtotal?.minorUnits, minimumCurrency: campaign.minimumSubtotal?.currency.code,
                  voucherCode: campaign.voucherCode?.normalized, usageLimitPerAccount: campaign.usageLimitPerAccount.map(Int64.init),
                  titleTranslations: Self.translationsJSON(campaign.title),
                  descriptionTranslations: Self.translationsJSON(campaign.description), paused: campaign.isPaused)
    }

    /// The campaign these columns hold.
    /// - Throws: ``CorruptColumn`` naming the first column that holds no part of a campaign (an
    ///   unknown currency, bad JSON, a target without its handle…) — a row edited by hand.
    public func campaign() throws(CorruptColumn) -> Campaign {
        func corrupt(_ column: String) -> CorruptColumn { CorruptColumn(column: column) }
        func money(_ minorUnits: Int64?, _ code: String?, _ column: String) throws(CorruptColumn) -> Money? {
            guard let minorUnits else { return nil }
            guard let code, let currency = try? Currency(code: code) else { throw corrupt(column) }
            return Money(minorUnits: minorUnits, currency: currency)
        }
        let discount: Discount
        if let discountPercent, let percent = Int(exactly: discountPercent) {
            discount = .percentage(percent)
        } else if let amount = try money(discountAmount, discountCurrency, "discount_currency") {
            discount = .fixedAmount(amount)
        } else {
            throw corrupt("discount_percent")
        }
        let target: DiscountTarget
        switch self.target {
        case "cart": target = .wholeCart
        case "category":
            guard let targetCategory else { throw corrupt("target_category") }
            target = .category(handle: targetCategory)
        case "products":
            guard let targetProducts, let handles = JSONStringArray.decode(targetProducts) else { throw corrupt("target_products") }
            target = .products(handles: handles)
        default: throw corrupt("target")
        }
        var code: VoucherCode?
        if let voucherCode {
            guard let valid = VoucherCode(voucherCode) else { throw corrupt("voucher_code") }
            code = valid
        }
        func text(_ text: String, _ json: String?, _ column: String) throws(CorruptColumn) -> LocalizedText {
            guard let json else { return LocalizedText(text) }
            guard let translations = Self.translations(json) else { throw corrupt(column) }
            return LocalizedText(text, translations: translations)
        }
        return Campaign(
            id: Campaign.ID(id), title: try text(title, titleTranslations, "title_translations"),
            description: try text(description, descriptionTranslations, "description_translations"),
            imageURL: imageURL, startsAt: StoredTime.date(unixSeconds: startsAt), endsAt: StoredTime.date(unixSeconds: endsAt),
            discount: discount, target: target, minimumSubtotal: try money(minimumSubtotal, minimumCurrency, "minimum_currency"),
            voucherCode: code, usageLimitPerAccount: usageLimitPerAccount.flatMap { Int(exactly: $0) }, isPaused: paused)
    }

    /// A text's translations as a JSON object by language code (sorted keys); nil without any.
    static func translationsJSON(_ text: LocalizedText) -> String? {
        guard !text.translations.isEmpty else { return nil }
        let object = Dictionary(uniqueKeysWithValues: text.translations.map { ($0.key.rawValue, $0.value) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The translations stored by `translationsJSON`: nil for text that is not such an object;
    /// codes this version does not speak are left out.
    static func translations(_ json: String) -> [Language: String]? {
        guard let object = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8)) else { return nil }
        var result: [Language: String] = [:]
        for (code, text) in object { if let language = Language(rawValue: code) { result[language] = text } }
        return result
    }
}

/// A value as every engine binds it: what a record shared by the engines (``CampaignRecord``)
/// hands each engine's statement, which maps it to its own value type.
public enum StoredValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    /// A boolean: SQLite stores it as 0 or 1, PostgreSQL as `boolean`.
    case bool(Bool)

    /// `.text`, or `.null` for nil.
    public init(_ text: String?) { self = text.map { .text($0) } ?? .null }
    /// `.integer`, or `.null` for nil.
    public init(_ integer: Int64?) { self = integer.map { .integer($0) } ?? .null }
}

/// The column reads every engine's rows offer (SQLite's `Row`, PostgreSQL's `PostgresRow`), so
/// a record shared by the engines reads itself from either.
public protocol StoredRow {
    func string(_ index: Int) throws -> String
    func optionalString(_ index: Int) throws -> String?
    func int64(_ index: Int) throws -> Int64
    func optionalInt64(_ index: Int) throws -> Int64?
    func bool(_ index: Int) throws -> Bool
}

/// What `CampaignStore.replaceAll` writes, decided above the engines: which campaigns are new,
/// changed, the same or gone, compared as they would be stored (`CampaignStore.stored`).
public struct CampaignReplacePlan: Sendable {
    /// The answer `replaceAll` gives.
    public var result = CampaignReplaceResult()
    /// Rows to delete first — the removed and the changed — so that a voucher code may move from
    /// one campaign to another within the same file without tripping its unique index.
    public var deletions: [Campaign.ID] = []
    /// Campaigns to insert: the new and the changed, in the file's order.
    public var writes: [Campaign] = []
    /// The stored campaigns, by id (for the audit's "before").
    private var stored: [Campaign.ID: Campaign] = [:]

    /// - Parameters:
    ///   - stored: the campaigns in the store now.
    ///   - incoming: the new set, already checked (`CampaignStore.check`) and as stored
    ///     (`CampaignStore.stored`).
    public init(stored: [Campaign], incoming: [Campaign]) {
        let before = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.stored = before
        for campaign in incoming {
            switch before[campaign.id] {
            case nil: result.added.append(campaign.id)
            case campaign: result.unchanged.append(campaign.id)
            default: result.updated.append(campaign.id)
            }
            if before[campaign.id] != campaign { writes.append(campaign) }
        }
        let kept = Set(incoming.map(\.id))
        result.removed = before.keys.filter { !kept.contains($0) }
            .sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
        deletions = result.removed + result.updated
    }

    /// The audit log's entries of the replacement: each campaign added (`create`), changed
    /// (`update`, only the fields that differ) or removed (`delete`).
    public func auditEntries(actor: AuditActor, now: Date) -> [AuditEntry] {
        let written = writes.map { campaign in
            AuditEntry(at: now, actor: actor, subject: "campaign", subjectID: campaign.id.rawValue,
                       action: stored[campaign.id] == nil ? "create" : "update",
                       changes: AuditChange.between(stored[campaign.id], campaign))
        }
        let removed = result.removed.map { id in
            AuditEntry(at: now, actor: actor, subject: "campaign", subjectID: id.rawValue, action: "delete",
                       changes: AuditChange.between(stored[id], Campaign?.none))
        }
        return written + removed
    }
}
