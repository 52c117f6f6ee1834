public import Foundation
public import ShopCore

/// Reads the merchant's campaign file (JSON; schema in `docs/CAMPAIGNS.md`) into `Campaign`
/// values, checking it whole: one mistake rejects the file, with a `CampaignFileError` naming
/// the campaign and the field.
///
/// ```json
/// {"campaigns": [{
///   "id": "winter-sale", "title": "Winter sale", "description": "20% off everything.",
///   "image": "/static/images/campaigns/winter.svg",
///   "startsAt": "2026-12-01T00:00:00+03:00", "endsAt": "2027-01-01T00:00:00+03:00",
///   "rule": {"type": "percentage", "percent": 20},
///   "appliesTo": {"type": "cart"},
///   "minimumSubtotal": "50.00", "voucherCode": "WINTER20", "usageLimitPerAccount": 1
/// }]}
/// ```
///
/// ```swift
/// let campaigns = try CampaignFile.read(data, fileName: "campaigns.json", currency: .usd)
/// ```
public enum CampaignFile {
    /// Reads and checks a campaign file.
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8 JSON; a byte order mark is skipped).
    ///   - fileName: used only in error messages.
    ///   - currency: the shop currency; amounts (`rule.amount`, `minimumSubtotal`) are decimal
    ///     strings in it, e.g. `"10.00"`, parsed with `Money.parse` (never through `Double`).
    /// - Returns: the campaigns in file order. Dates are exact instants (their time zone applied);
    ///   category and product handles are normalized with `Handle.make(from:)`; voucher codes are
    ///   upper case (`VoucherCode`).
    /// - Throws: `CampaignFileError` for invalid JSON, an unknown field at any level (a typo such
    ///   as `startAt`), a missing or mistyped field, an id that is not lower-case letters, digits,
    ///   `-` and `_`, a date-time without a time zone, `endsAt` not after `startsAt`, an unknown
    ///   rule or target type, a percentage outside 1…100 or not whole, an amount or minimum that
    ///   is not more than zero, an image that is not a site path or http(s) URL, a voucher code with
    ///   characters other than letters, digits, `-` and `_` (or longer than 40), an empty or
    ///   repeated product list, a usage limit below 1, a `currency` other than the shop's,
    ///   and a repeated campaign id or voucher code (voucher codes compared without case).
    public static func read(_ data: Data, fileName: String, currency: Currency) throws(CampaignFileError) -> [Campaign] {
        let root: JSONNode
        do {
            root = try JSONParser.parse([UInt8](data))
        } catch {
            throw CampaignFileError(file: fileName, line: error.line, message: "not valid JSON: \(error.message)")
        }
        let top = try Fields(root, file: fileName, campaign: nil, path: "", what: "the file")
        try top.checkKnown(["campaigns", "currency"])
        if let code = try top.string("currency"), code.uppercased() != currency.code {
            throw top.error("currency", "the file is in “\(code)” but the shop sells in \(currency.code)")
        }
        guard let list = top.node("campaigns") else {
            throw top.error("campaigns", "is required: {\"campaigns\": [ … ]}")
        }
        guard let items = list.array else {
            throw top.error("campaigns", "expected an array of campaigns, found \(list.kindName)")
        }

        var campaigns: [Campaign] = []
        var positionByID: [String: Int] = [:]
        var positionByCode: [VoucherCode: Int] = [:]
        for (offset, item) in items.enumerated() {
            let position = offset + 1
            let idText: String? = if case let .string(text) = item.object?["id"]?.value { text } else { nil }
            let context = CampaignContext(position: position, id: idText)
            let fields = try Fields(item, file: fileName, campaign: context, path: "", what: "a campaign")
            let campaign = try readCampaign(fields, currency: currency)
            if let first = positionByID[campaign.id.rawValue] {
                throw fields.error("id", "campaign #\(first) already has the id “\(campaign.id.rawValue)”: ids must be unique")
            }
            positionByID[campaign.id.rawValue] = position
            if let code = campaign.voucherCode {
                if let first = positionByCode[code] {
                    throw fields.error("voucherCode",
                                       "campaign #\(first) already uses the code \(code.normalized) (codes are compared without case)")
                }
                positionByCode[code] = position
            }
            campaigns.append(campaign)
        }
        return campaigns
    }

    /// The longest campaign id, in characters (`Campaign.maximumIDLength`).
    public static let maximumIDLength = Campaign.maximumIDLength

    /// `true` for an id the file may use (`Campaign.isValidID`).
    public static func isValidID(_ id: String) -> Bool { Campaign.isValidID(id) }

    private static let campaignFields = ["id", "title", "description", "image", "startsAt", "endsAt", "rule",
                                         "appliesTo", "minimumSubtotal", "voucherCode", "usageLimitPerAccount", "paused"]

    private static func readCampaign(_ fields: Fields, currency: Currency) throws(CampaignFileError) -> Campaign {
        try fields.checkKnown(campaignFields)
        let id = try fields.requiredString("id")
        guard isValidID(id) else {
            throw fields.error("id", "“\(id)” is not a usable id: use 1–\(maximumIDLength) lower-case letters, digits, "
                               + "“-” and “_”, e.g. winter-sale (it appears in the campaign's URL)")
        }
        let title = try fields.requiredLocalizedText("title")
        let description = try fields.localizedText("description") ?? ""
        let image = try fields.string("image")?.trimmingCharacters(in: .whitespaces)
        if let image, !image.isEmpty, !Campaign.isSitePathOrWebURL(image) {
            throw fields.error("image", "“\(image)” is not a site path such as /static/images/campaigns/winter.svg "
                               + "or an http(s) URL")
        }
        let startsAt = try fields.dateTime("startsAt")
        let endsAt = try fields.dateTime("endsAt")
        guard endsAt > startsAt else {
            throw fields.error("endsAt", "must be later than startsAt (a campaign runs from startsAt up to, "
                               + "not including, endsAt)")
        }
        guard let ruleFields = try fields.object("rule") else {
            throw fields.error("rule", "is required, e.g. {\"type\": \"percentage\", \"percent\": 20}")
        }
        let discount = try readRule(ruleFields, currency: currency)
        let target = try fields.object("appliesTo").map { (target: Fields) throws(CampaignFileError) in
            try readTarget(target)
        } ?? .wholeCart
        let minimum = try fields.money("minimumSubtotal", currency: currency)
        if let minimum, minimum.minorUnits <= 0 {
            throw fields.error("minimumSubtotal", "must be more than 0 (leave it out for no minimum)")
        }
        var voucherCode: VoucherCode?
        if let text = try fields.string("voucherCode") {
            guard let code = VoucherCode(text) else {
                throw fields.error("voucherCode", "“\(text)” is not a usable code: use 1–40 letters, digits, “-” and “_”, "
                                   + "no spaces, e.g. WINTER20")
            }
            voucherCode = code
        }
        let usageLimit = try fields.int("usageLimitPerAccount", acceptsText: true)
        if let usageLimit, usageLimit < 1 {
            throw fields.error("usageLimitPerAccount", "must be at least 1 (leave it out for no limit)")
        }
        let paused = try fields.bool("paused") ?? false
        let campaign = Campaign(id: Campaign.ID(id), title: title, description: description,
                                imageURL: image.flatMap { $0.isEmpty ? nil : $0 }, startsAt: startsAt, endsAt: endsAt,
                                discount: discount, target: target, minimumSubtotal: minimum, voucherCode: voucherCode,
                                usageLimitPerAccount: usageLimit, isPaused: paused)
        // The core's rules, which the back office's form keeps too: the file's own checks above
        // word each problem for the file; this one is the backstop both share.
        do {
            try campaign.validate(currency: currency)
        } catch {
            throw fields.error(key(for: error.field), error.localizedDescription)
        }
        return campaign
    }

    private static func readRule(_ rule: Fields, currency: Currency) throws(CampaignFileError) -> Discount {
        let type = try rule.requiredString("type", hint: "percentage or fixed")
        switch type {
        case "percentage":
            try rule.checkKnown(["type", "percent"])
            guard let percent = try rule.int("percent", acceptsText: true) else {
                throw rule.error("percent", "is required for a percentage rule: a whole number from 1 to 100")
            }
            guard (1...100).contains(percent) else {
                throw rule.error("percent", "\(percent) is outside 1…100: a percentage discount takes off more than 0 "
                                 + "and at most 100 percent")
            }
            return .percentage(percent)
        case "fixed":
            try rule.checkKnown(["type", "amount"])
            guard let amount = try rule.money("amount", currency: currency) else {
                throw rule.error("amount", "is required for a fixed rule, e.g. \"10.00\" (in \(currency.code))")
            }
            guard amount.minorUnits > 0 else { throw rule.error("amount", "must be more than 0") }
            return .fixedAmount(amount)
        default:
            throw rule.error("type", "unknown rule type “\(type)”: use percentage or fixed")
        }
    }

    private static func readTarget(_ target: Fields) throws(CampaignFileError) -> DiscountTarget {
        let type = try target.requiredString("type", hint: "cart, category or products")
        switch type {
        case "cart":
            try target.checkKnown(["type"])
            return .wholeCart
        case "category":
            try target.checkKnown(["type", "category"])
            let category = try target.requiredString("category", hint: "the category's handle, e.g. lamps")
            return .category(handle: Handle.make(from: category))
        case "products":
            try target.checkKnown(["type", "products"])
            guard let items = try target.strings("products") else {
                throw target.error("products", "is required: a list of product handles, e.g. [\"oak-dining-chair\"]")
            }
            guard !items.isEmpty else {
                throw target.error("products", "is empty: list at least one product handle")
            }
            var handles: [String] = []
            for item in items {
                let trimmed = item.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { throw target.error("products", "has an empty product handle") }
                let handle = Handle.make(from: trimmed)
                guard !handles.contains(handle) else {
                    throw target.error("products", "lists “\(handle)” twice")
                }
                handles.append(handle)
            }
            return .products(handles: handles)
        default:
            throw target.error("type", "unknown target type “\(type)”: use cart, category or products")
        }
    }

    /// A site path (`/static/…`, not `//host`) or an `http(s)://` URL; never `javascript:` or `data:`.
    /// The file's key of a campaign property, for the core's messages.
    private static func key(for field: CampaignField) -> String {
        switch field {
        case .id: "id"
        case .title: "title"
        case .description: "description"
        case .imageURL: "image"
        case .discount: "rule"
        case .startsAt: "startsAt"
        case .endsAt: "endsAt"
        case .target: "appliesTo"
        case .minimumSubtotal: "minimumSubtotal"
        case .usageLimitPerAccount: "usageLimitPerAccount"
        }
    }
}

/// Which campaign a field belongs to, for messages.
private struct CampaignContext {
    var position: Int
    var id: String?
}

/// Typed access to one JSON object of a campaign file, with errors naming the campaign and the
/// field's dotted path.
private struct Fields: JSONFieldReader {
    let exampleAmount = "10.00"
    let fields: [String: JSONNode]
    let line: Int
    let file: String
    let campaign: CampaignContext?
    /// `""` for a campaign's own fields, `"rule."` for its rule, …
    let path: String

    init(_ node: JSONNode, file: String, campaign: CampaignContext?, path: String, what: String) throws(CampaignFileError) {
        self.line = node.line
        self.file = file
        self.campaign = campaign
        self.path = path
        guard let fields = node.object else {
            throw CampaignFileError(file: file, line: node.line, position: campaign?.position, campaignID: campaign?.id,
                                    field: path.isEmpty ? nil : String(path.dropLast()),
                                    message: "\(what) must be a JSON object, not \(node.kindName)")
        }
        self.fields = fields
    }

    func error(_ key: String, _ message: String) -> CampaignFileError {
        error(key, line: fields[key]?.line ?? line, message)
    }

    func error(_ key: String, line: Int, _ message: String) -> CampaignFileError {
        CampaignFileError(file: file, line: line, position: campaign?.position,
                          campaignID: campaign?.id, field: path + key, message: message)
    }

    /// Throws for the first field (in name order) that is not in `known`, suggesting the known
    /// name it most resembles.
    func checkKnown(_ known: [String]) throws(CampaignFileError) {
        for key in fields.keys.sorted() where !known.contains(key) {
            var message = "unknown field “\(key)”"
            if let guess = Fields.closest(to: key, in: known) { message += " — did you mean “\(guess)”?" }
            message += " Known here: " + known.joined(separator: ", ") + "."
            throw error(key, message)
        }
    }

    /// The node, or nil when absent or null.

    /// A required RFC 3339 date-time with a time zone (`DateTimeText`).
    func dateTime(_ key: String) throws(CampaignFileError) -> Date {
        let example = "2026-12-01T00:00:00+03:00"
        let text = try requiredString(key, hint: "a date-time with a time zone, e.g. \(example)")
        do {
            return try DateTimeText.parse(text)
        } catch {
            let message = switch error {
            case .missingTimeZone: "“\(text)” has no time zone: add Z (UTC) or an offset, e.g. \(example)"
            case .missingTime: "“\(text)” needs a time and a time zone, e.g. \(example)"
            case .fractionalSeconds: "“\(text)” has fractional seconds: write whole seconds, e.g. \(example)"
            case .outOfRange: "“\(text)” is not a real date and time"
            case .malformed: "“\(text)” is not a date-time such as \(example)"
            }
            throw self.error(key, message)
        }
    }

    /// A nested object, or nil when absent or null.
    func object(_ key: String) throws(CampaignFileError) -> Fields? {
        guard let node = node(key) else { return nil }
        guard node.object != nil else { throw error(key, "expected an object, found \(node.kindName)") }
        return try Fields(node, file: file, campaign: campaign, path: path + key + ".", what: "“\(key)”")
    }

    /// The name in `candidates` within two edits of `key` (ignoring case), if any.
    static func closest(to key: String, in candidates: [String]) -> String? {
        let lowered = Array(key.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance <= 2, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
