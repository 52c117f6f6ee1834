public import Foundation
public import ShopCore

/// The merchant's shop configuration (issue #5): how orders ship, how they are paid for, and
/// how long checkout holds stock. Read from `shop.json` by `ShopConfigFile.read`.
public struct ShopConfig: Hashable, Sendable {
    /// The shipping methods in file order (at least one). Prices are in the shop currency.
    public var shippingMethods: [ShippingMethod]
    /// The bank-transfer instructions shown on an order awaiting payment (account holder, bank,
    /// IBAN, and to use the order number as the reference). Plain text; newlines separate lines;
    /// the web escapes it on output. Shown in the shopper's language when translated.
    public var paymentInstructions: LocalizedText
    /// How long, in minutes, reaching the review step holds the cart's stock (default 15).
    public var reservationMinutes: Int
    /// Translations of product option names ("Color" → "Renk"), shown where the names are.
    public var optionNames: OptionNameGlossary
    /// After how many days an order still awaiting payment is cancelled by the shop, its stock
    /// given back (issue #16; default 7).
    public var unpaidOrderDays: Int

    /// The reservation time used when the file leaves `reservationMinutes` out.
    public static let defaultReservationMinutes = 15
    /// The wait used when the file leaves `unpaidOrderDays` out.
    public static let defaultUnpaidOrderDays = 7

    public init(shippingMethods: [ShippingMethod], paymentInstructions: LocalizedText,
                reservationMinutes: Int = ShopConfig.defaultReservationMinutes,
                optionNames: OptionNameGlossary = OptionNameGlossary(),
                unpaidOrderDays: Int = ShopConfig.defaultUnpaidOrderDays) {
        self.shippingMethods = shippingMethods
        self.paymentInstructions = paymentInstructions
        self.reservationMinutes = reservationMinutes
        self.optionNames = optionNames
        self.unpaidOrderDays = unpaidOrderDays
    }

    /// How long an order may await payment, in seconds.
    public var unpaidOrderLifetime: TimeInterval { TimeInterval(unpaidOrderDays) * 86_400 }

    /// The methods that ship to `countryCode` (ISO 3166-1 alpha-2), in file order.
    public func shippingMethods(to countryCode: String) -> [ShippingMethod] {
        shippingMethods.filter { $0.ships(to: countryCode) }
    }

    /// The method with this id, if any.
    public func shippingMethod(id: String) -> ShippingMethod? {
        shippingMethods.first { $0.id.rawValue == id }
    }

    /// The reservation time in seconds.
    public var reservationDuration: TimeInterval { TimeInterval(reservationMinutes) * 60 }
}

/// Why a shop configuration file was rejected: the whole file is refused, and the message names
/// the place and the field, e.g. `shop.json:4: field “shipping[2].price”: “-1.00” is negative`.
public struct ShopConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the reader (used only in messages).
    public var file: String
    /// The 1-based line of the offending JSON value (or of its object when the field is missing);
    /// nil when unknown.
    public var line: Int?
    /// The field as a path: `"shipping"`, `"shipping[2].price"` (1-based position),
    /// `"payment.bankTransfer"`, `"reservationMinutes"`; nil for problems not about one field
    /// (e.g. a JSON syntax error).
    public var field: String?
    /// What is wrong and, where possible, what was expected.
    public var message: String

    public init(file: String, line: Int?, field: String?, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    /// `file:line: field “path”: message`; unknown parts are left out.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "field “\(field)”: " }
        return text + message
    }
}

/// Reads the merchant's shop configuration file (JSON; documented in `docs/ORDERS.md`):
///
/// ```json
/// {
///   "shipping": [
///     {"id": "standard", "name": {"en": "Standard delivery", "tr": "Standart teslimat"}, "price": "4.90", "freeAbove": "50.00"},
///     {"id": "pickup", "name": "Pick up in Portland", "price": "0.00", "countries": ["US"]}
///   ],
///   "payment": {"bankTransfer": "Account holder: …\nIBAN: …\nReference: your order number"},
///   "optionNames": {"Color": {"tr": "Renk", "es": "Color"}},
///   "reservationMinutes": 15
/// }
/// ```
///
/// ```swift
/// let config = try ShopConfigFile.read(data, fileName: "shop.json", currency: .usd)
/// ```
public enum ShopConfigFile {
    /// The longest shipping method id, in characters.
    public static let maximumIDLength = 64
    /// The longest reservation the file may ask for: one day, in minutes.
    public static let maximumReservationMinutes = 24 * 60
    /// The longest `unpaidOrderDays`: a year.
    public static let maximumUnpaidOrderDays = 365

    /// Reads and checks a shop configuration file.
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8 JSON; a byte order mark is skipped).
    ///   - fileName: used only in error messages.
    ///   - currency: the shop currency; `price` and `freeAbove` are decimal strings in it, e.g.
    ///     `"4.90"` (JSON numbers are read from their exact text), parsed with `Money.parse`
    ///     (never through `Double`).
    /// - Returns: the configuration; country codes are upper-cased; names and instructions trimmed.
    /// - Throws: `ShopConfigError` for invalid JSON; an unknown field at any level (with a
    ///   suggestion for a near miss such as `freeAbov`); a missing `shipping` list, an empty one,
    ///   or a method that is not an object; a missing or unusable `id` (1–64 of `a`–`z`, `0`–`9`,
    ///   `-`, `_`) or a repeated one; a missing `name`; a missing, unparsable or negative `price`;
    ///   an unparsable or negative `freeAbove`; a `countries` list that is empty, repeats a code,
    ///   or holds a code `Countries.isKnown` does not know; a missing `payment.bankTransfer` text;
    ///   a `reservationMinutes` that is not a whole number from 1 to 1440; a translated `name` or
    ///   `bankTransfer` (`{"en": …, "tr": …}`) or an `optionNames` entry with a key other than
    ///   `en`/`tr`/`es`, an empty text, or (for `name`/`bankTransfer`) no `"en"` — each naming the
    ///   field and the entry's line.
    public static func read(_ data: Data, fileName: String, currency: Currency) throws(ShopConfigError) -> ShopConfig {
        let root: JSONNode
        do {
            root = try JSONParser.parse([UInt8](data))
        } catch {
            throw ShopConfigError(file: fileName, line: error.line, field: nil, message: "not valid JSON: \(error.message)")
        }
        let top = try ConfigFields(root, file: fileName, path: "", what: "the file")
        try top.checkKnown(["shipping", "payment", "reservationMinutes", "optionNames", "unpaidOrderDays"])

        guard let list = top.node("shipping") else {
            throw top.error("shipping", "is required: a list of shipping methods, e.g. "
                            + "[{\"id\": \"standard\", \"name\": \"Standard delivery\", \"price\": \"4.90\"}]")
        }
        guard let items = list.array else {
            throw top.error("shipping", "expected an array of shipping methods, found \(list.kindName)")
        }
        guard !items.isEmpty else {
            throw top.error("shipping", "is empty: configure at least one shipping method")
        }
        var methods: [ShippingMethod] = []
        var positionByID: [String: Int] = [:]
        for (offset, item) in items.enumerated() {
            let position = offset + 1
            let fields = try ConfigFields(item, file: fileName, path: "shipping[\(position)].", what: "a shipping method")
            let method = try readMethod(fields, currency: currency)
            if let first = positionByID[method.id.rawValue] {
                throw fields.error("id", "shipping method #\(first) already has the id “\(method.id.rawValue)”: ids must be unique")
            }
            positionByID[method.id.rawValue] = position
            methods.append(method)
        }

        guard let payment = try top.object("payment") else {
            throw top.error("payment", "is required: {\"bankTransfer\": \"Account holder: …\\nIBAN: …\"}")
        }
        try payment.checkKnown(["bankTransfer"])
        let instructions = try payment.requiredLocalizedText(
            "bankTransfer", hint: "the bank-transfer instructions: account holder, bank, IBAN, and that the "
                + "order number is the reference")

        let minutes = try top.int("reservationMinutes") ?? ShopConfig.defaultReservationMinutes
        guard (1...maximumReservationMinutes).contains(minutes) else {
            throw top.error("reservationMinutes", "\(minutes) is outside 1…\(maximumReservationMinutes): checkout holds "
                            + "stock for at least one minute and at most a day")
        }
        let unpaidDays = try top.int("unpaidOrderDays") ?? ShopConfig.defaultUnpaidOrderDays
        guard (1...maximumUnpaidOrderDays).contains(unpaidDays) else {
            throw top.error("unpaidOrderDays", "\(unpaidDays) is outside 1…\(maximumUnpaidOrderDays): an order awaits its "
                            + "payment for at least a day and at most a year before the shop cancels it")
        }
        var optionNames: [String: LocalizedText] = [:]
        if let glossary = try top.object("optionNames") {
            for name in glossary.fields.keys.sorted() {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { throw glossary.error(name, "an option name cannot be empty") }
                optionNames[trimmed] = try glossary.localizedText(name, defaultText: trimmed)
            }
        }
        return ShopConfig(shippingMethods: methods, paymentInstructions: instructions, reservationMinutes: minutes,
                          optionNames: OptionNameGlossary(optionNames), unpaidOrderDays: unpaidDays)
    }

    /// `true` for an id the file may use: 1…64 of `a`–`z`, `0`–`9`, `-`, `_`, starting with a
    /// letter or digit (it is a form value and is stored with a checkout).
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= maximumIDLength,
              first != "-", first != "_" else { return false }
        return id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
    }

    private static func readMethod(_ fields: ConfigFields, currency: Currency) throws(ShopConfigError) -> ShippingMethod {
        try fields.checkKnown(["id", "name", "price", "freeAbove", "countries"])
        let id = try fields.requiredString("id", hint: "e.g. standard")
        guard isValidID(id) else {
            throw fields.error("id", "“\(id)” is not a usable id: use 1–\(maximumIDLength) lower-case letters, digits, "
                               + "“-” and “_”, e.g. standard")
        }
        let name = try fields.requiredLocalizedText(
            "name", hint: "what shoppers see, e.g. Standard delivery (3–5 days), or {\"en\": …, \"tr\": …, \"es\": …}")
        guard let price = try fields.money("price", currency: currency) else {
            throw fields.error("price", "is required, e.g. \"4.90\" (in \(currency.code); \"0.00\" for free)")
        }
        guard price.minorUnits >= 0 else { throw fields.error("price", "“\(price.decimalString)” is negative") }
        let freeAbove = try fields.money("freeAbove", currency: currency)
        if let freeAbove, freeAbove.minorUnits < 0 {
            throw fields.error("freeAbove", "“\(freeAbove.decimalString)” is negative (leave it out to always charge)")
        }
        var countries: Set<String>?
        if let codes = try fields.strings("countries") {
            guard !codes.isEmpty else {
                throw fields.error("countries", "is empty: list ISO 3166 codes such as \"US\", or leave it out to ship everywhere")
            }
            var seen: Set<String> = []
            for text in codes {
                let code = text.trimmingCharacters(in: .whitespaces).uppercased()
                guard Countries.isKnown(code) else {
                    throw fields.error("countries", "“\(text)” is not an ISO 3166-1 alpha-2 country code such as US or DE")
                }
                guard seen.insert(code).inserted else { throw fields.error("countries", "lists “\(code)” twice") }
            }
            countries = seen
        }
        return ShippingMethod(id: ShippingMethod.ID(id), name: name, price: price, freeAbove: freeAbove, countries: countries)
    }
}

/// Typed access to one JSON object of the configuration file, with errors naming the field's path.
private struct ConfigFields: JSONFieldReader {
    let exampleAmount = "4.90"
    let fields: [String: JSONNode]
    let line: Int
    let file: String
    /// `""` at the top, `"shipping[2]."` in a method, `"payment."` in the payment object.
    let path: String

    init(_ node: JSONNode, file: String, path: String, what: String) throws(ShopConfigError) {
        self.line = node.line
        self.file = file
        self.path = path
        guard let fields = node.object else {
            throw ShopConfigError(file: file, line: node.line, field: path.isEmpty ? nil : String(path.dropLast()),
                                  message: "\(what) must be a JSON object, not \(node.kindName)")
        }
        self.fields = fields
    }

    func error(_ key: String, _ message: String) -> ShopConfigError {
        error(key, line: fields[key]?.line ?? line, message)
    }

    func error(_ key: String, line: Int, _ message: String) -> ShopConfigError {
        ShopConfigError(file: file, line: line, field: path + key, message: message)
    }

    /// Throws for the first field (in name order) not in `known`, suggesting a near miss.
    func checkKnown(_ known: [String]) throws(ShopConfigError) {
        for key in fields.keys.sorted() where !known.contains(key) {
            var message = "unknown field “\(key)”"
            if let guess = known.first(where: { Self.isNearMiss(key, $0) }) { message += " — did you mean “\(guess)”?" }
            message += " Known here: " + known.joined(separator: ", ") + "."
            throw error(key, message)
        }
    }

    /// Same letters ignoring case, or one edit (insert, delete, replace) apart.
    private static func isNearMiss(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        if x == y { return true }
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count, j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if x.count < y.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }


    func object(_ key: String) throws(ShopConfigError) -> ConfigFields? {
        guard let node = node(key) else { return nil }
        return try ConfigFields(node, file: file, path: path + key + ".", what: "“\(key)”")
    }
}
