public import ShopStore
import Foundation
import ShopCore
import SQLite

extension CampaignStore {
    /// Campaigns in a SQLite database (schema: `ShopSchema` migration 5, migrated beforehand).
    ///
    /// - `replaceAll` runs in one transaction (`BEGIN IMMEDIATE`): it rewrites the campaigns that
    ///   are new or changed, deletes the ones not given, leaves equal ones alone, and bumps
    ///   `campaign_state.version` when anything changed.
    /// - Times are Unix seconds: `startsAt`/`endsAt` come back rounded down to the second.
    /// - Amounts are minor units with their ISO 4217 currency; the product list of a
    ///   `.products` target is a JSON array of handles.
    /// - Reads throw `SQLiteStoreError.corruptValue` when a row was edited into something that
    ///   is not a campaign (unknown currency, bad JSON).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> CampaignStore {
        let version = SQLiteDatabase.Memo<Int64>()
        return CampaignStore(
            replaceAll: { campaigns in
                try check(campaigns)
                let incoming = campaigns.map(stored)
                return try database.withConnection { connection in
                    try connection.transaction {
                        let before = Dictionary(uniqueKeysWithValues: try SQLCampaigns.all(connection).map { ($0.id, $0) })
                        var result = CampaignReplaceResult()
                        var writes: [Campaign] = []
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
                        // Delete first, then insert: a voucher code may move from one campaign to
                        // another within the same file without tripping its UNIQUE constraint.
                        let delete = try connection.prepare("DELETE FROM campaigns WHERE id = ?")
                        for id in result.removed + result.updated { try delete.run([.text(id.rawValue)]) }
                        let insert = try connection.prepare(SQLCampaigns.insert)
                        for campaign in writes { try insert.run(SQLCampaigns.values(campaign)) }
                        if result.changedAnything {
                            try connection.prepare("UPDATE campaign_state SET version = version + 1 WHERE id = 1").run()
                        }
                        return result
                    }
                }
            },
            all: {
                try database.withConnection { connection in try SQLCampaigns.all(connection) }
            },
            campaign: { id in
                try database.withConnection { connection in
                    try connection.prepare(SQLCampaigns.select + " WHERE id = ?").first([.text(id.rawValue)])
                        .map(SQLCampaigns.campaign)
                }
            },
            byVoucherCode: { code in
                try database.withConnection { connection in
                    try connection.prepare(SQLCampaigns.select + " WHERE voucher_code = ?").first([.text(code.normalized)])
                        .map(SQLCampaigns.campaign)
                }
            },
            version: {
                // Remembered like the catalog version: until a commit of this process, or 10 ms.
                try database.remembered(version) {
                    try database.withConnection { connection in
                        try connection.prepare("SELECT version FROM campaign_state WHERE id = 1").first()?.int64(0) ?? 0
                    }
                }
            }
        )
    }
}

/// Rows of the `campaigns` table ↔ `Campaign` values.
enum SQLCampaigns {
    static let columns = """
        rowid, id, title, description, image_url, starts_at, ends_at, discount_percent, discount_amount,
        discount_currency, target, target_category, target_products, minimum_subtotal, minimum_currency,
        voucher_code, usage_limit_per_account, title_translations, description_translations
        """
    static let select = "SELECT \(columns) FROM campaigns"

    static let insert = """
        INSERT INTO campaigns (id, title, description, image_url, starts_at, ends_at, discount_percent,
          discount_amount, discount_currency, target, target_category, target_products, minimum_subtotal,
          minimum_currency, voucher_code, usage_limit_per_account, title_translations, description_translations)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Every campaign, by `starts_at`, then id.
    static func all(_ connection: Connection) throws -> [Campaign] {
        try connection.prepare(select + " ORDER BY starts_at, id").query().map(campaign)
    }

    /// The values bound to `insert`, in order.
    static func values(_ campaign: Campaign) -> [SQLValue] {
        var percent: Int?
        var amount: Money?
        switch campaign.discount {
        case let .percentage(value): percent = value
        case let .fixedAmount(value): amount = value
        }
        let (target, category, products): (String, String?, String?) = switch campaign.target {
        case .wholeCart: ("cart", nil, nil)
        case let .category(handle): ("category", handle, nil)
        case let .products(handles): ("products", nil, JSONStringArray.encode(handles))
        }
        return [
            .text(campaign.id.rawValue), .text(campaign.title.defaultText), .text(campaign.description.defaultText),
            SQLValue(campaign.imageURL),
            .integer(StoredTime.unixSeconds(campaign.startsAt)), .integer(StoredTime.unixSeconds(campaign.endsAt)),
            SQLValue(percent), SQLValue(amount?.minorUnits), SQLValue(amount?.currency.code),
            .text(target), SQLValue(category), SQLValue(products),
            SQLValue(campaign.minimumSubtotal?.minorUnits), SQLValue(campaign.minimumSubtotal?.currency.code),
            SQLValue(campaign.voucherCode?.normalized), SQLValue(campaign.usageLimitPerAccount),
            SQLValue(translationsJSON(campaign.title)), SQLValue(translationsJSON(campaign.description)),
        ]
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

    /// A campaign from a row selected with `columns`.
    static func campaign(_ row: Row) throws -> Campaign {
        let rowID = try row.int64(0)
        func corrupt(_ column: String) -> SQLiteStoreError {
            .corruptValue(table: "campaigns", column: column, rowID: rowID)
        }
        func money(_ amountColumn: Int, _ currencyColumn: Int, _ name: String) throws -> Money? {
            guard let minorUnits = try row.optionalInt64(amountColumn) else { return nil }
            guard let code = try row.optionalString(currencyColumn), let currency = try? Currency(code: code) else {
                throw corrupt(name)
            }
            return Money(minorUnits: minorUnits, currency: currency)
        }

        let discount: Discount
        if let percent = try row.optionalInt(7) {
            discount = .percentage(percent)
        } else if let amount = try money(8, 9, "discount_currency") {
            discount = .fixedAmount(amount)
        } else {
            throw corrupt("discount_percent")
        }
        let target: DiscountTarget
        switch try row.string(10) {
        case "cart": target = .wholeCart
        case "category":
            guard let handle = try row.optionalString(11) else { throw corrupt("target_category") }
            target = .category(handle: handle)
        case "products":
            guard let text = try row.optionalString(12), let handles = JSONStringArray.decode(text) else {
                throw corrupt("target_products")
            }
            target = .products(handles: handles)
        default: throw corrupt("target")
        }
        var voucherCode: VoucherCode?
        if let text = try row.optionalString(15) {
            guard let code = VoucherCode(text) else { throw corrupt("voucher_code") }
            voucherCode = code
        }
        func text(_ column: Int, _ translationsColumn: Int, _ name: String) throws -> LocalizedText {
            guard let json = try row.optionalString(translationsColumn) else { return LocalizedText(try row.string(column)) }
            guard let translations = translations(json) else { throw corrupt(name) }
            return LocalizedText(try row.string(column), translations: translations)
        }
        return Campaign(
            id: Campaign.ID(try row.string(1)), title: try text(2, 17, "title_translations"),
            description: try text(3, 18, "description_translations"),
            imageURL: try row.optionalString(4), startsAt: StoredTime.date(unixSeconds: try row.int64(5)),
            endsAt: StoredTime.date(unixSeconds: try row.int64(6)), discount: discount, target: target,
            minimumSubtotal: try money(13, 14, "minimum_currency"), voucherCode: voucherCode,
            usageLimitPerAccount: try row.optionalInt(16))
    }
}
