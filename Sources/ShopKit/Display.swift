import Foundation
public import ShopAPI
public import ShopCore
import ShopClient

/// One line of an order or of a checkout's review, every text written for the locale.
public struct OrderLineRow: Hashable, Sendable {
    /// The product's title, e.g. `"Oak Chair"`.
    public var title: String
    /// The variant's title, e.g. `"Natural / Large"` (empty for a product without options).
    public var variantTitle: String
    /// How many.
    public var quantity: Int
    /// The price of one, formatted.
    public var unitPrice: String
    /// The line's discount, formatted; nil when none.
    public var discount: String?
    /// What the line costs after its discount, formatted.
    public var total: String

    /// The row of `line`, written for `language`.
    public init(_ line: V1OrderLine, language: Language) {
        title = line.title
        variantTitle = line.variantTitle
        quantity = line.quantity
        unitPrice = line.unitPrice.text(in: language.locale)
        discount = line.discount.minorUnits == 0 ? nil : line.discount.text(in: language.locale)
        total = line.total.text(in: language.locale)
    }

    /// `"2 × Oak Chair — $258.00"`.
    var snapshot: String {
        "\(quantity) × \(title)\(variantTitle.isEmpty ? "" : " (\(variantTitle))") — \(total)"
    }
}

/// An address form's values as typed, by field, checked with ShopCore's `AddressRules` and
/// its messages (`AddressProblem.message(in:)`) — the storefront's form and the API's rules.
public struct AddressForm: Hashable, Sendable {
    /// The typed values by field (absent = empty).
    public var values: [AddressField: String]
    /// Whether the address becomes the default one.
    public var isDefault: Bool

    /// A form holding `values`.
    public init(values: [AddressField: String] = [:], isDefault: Bool = false) {
        self.values = values
        self.isDefault = isDefault
    }

    /// A form filled from `address` (editing a saved address).
    public init(_ address: V1Address, isDefault: Bool = false) {
        var values: [AddressField: String] = [:]
        values[.firstName] = address.firstName
        values[.lastName] = address.lastName
        values[.phone] = address.phone
        values[.email] = address.email
        values[.line1] = address.line1
        values[.line2] = address.line2
        values[.city] = address.city
        values[.postalCode] = address.postalCode
        values[.region] = address.region
        values[.countryCode] = address.country
        self.init(values: values, isDefault: isDefault)
    }

    /// The value of `field` (empty when not typed).
    public subscript(field: AddressField) -> String {
        get { values[field] ?? "" }
        set { values[field] = newValue }
    }

    /// Every field's problems as messages in `language`; empty when the form is acceptable.
    public func errors(in language: Language) -> [AddressField: [String]] {
        do {
            _ = try AddressRules.validate(values, isDefault: isDefault)
            return [:]
        } catch {
            return error.byField.mapValues { $0.map { $0.message(in: language) } }
        }
    }

    /// The checked, cleaned address as the API takes it, or nil when a field has a problem.
    public var address: V1Address? {
        guard let address = try? AddressRules.validate(values, isDefault: isDefault) else { return nil }
        return V1Address(firstName: address.firstName, lastName: address.lastName, phone: address.phone,
                         email: address.email, line1: address.line1, line2: address.line2.isEmpty ? nil : address.line2,
                         city: address.city, postalCode: address.postalCode, region: address.region,
                         country: address.countryCode)
    }
}

extension V1Address {
    /// The address as label lines, the country named in `language` (`Address.lines(in:)`).
    func lines(in language: Language) -> [String] {
        Address(firstName: firstName ?? "", lastName: lastName ?? "", phone: phone ?? "", email: email,
                line1: line1 ?? "", line2: line2 ?? "", city: city ?? "", postalCode: postalCode ?? "",
                region: region, countryCode: country ?? "").lines(in: language)
    }
}

extension NetworkError {
    /// The text a screen shows for this error: the server's message (in the language it
    /// decided), or a short account of the failure.
    var message: String { localizedDescription }
}

extension Connectivity {
    /// A list's state after loading it through ``send(_:)``: ``LoadState/loaded(_:)`` with its
    /// rows, ``LoadState/empty`` for none, else the error's state — and when offline, `retry`
    /// is registered under `key` to run once the shop answers again.
    /// - Parameters:
    ///   - key: which read (``retryWhenOnline(_:_:)``).
    ///   - retry: the model's load, run again after an offline failure.
    ///   - fetch: the request.
    ///   - row: makes a row of each item (on the main actor: it may read the model's language).
    func list<Item: Sendable, Row: Sendable>(_ key: String, retry: @escaping @MainActor () async -> Void,
                                             _ fetch: @Sendable () async throws -> [Item],
                                             row: (Item) -> Row) async -> LoadState<[Row]> {
        do {
            let rows = try await send(fetch).map(row)
            return rows.isEmpty ? .empty : .loaded(rows)
        } catch {
            if case .offline = error { retryWhenOnline(key, retry) }
            return LoadState(error)
        }
    }
}

/// What an order charges, line by line, as an order's page and checkout's review show it.
public struct ChargeLines: Hashable, Sendable {
    /// The lines.
    public var lines: [OrderLineRow]
    /// Before the discount, formatted.
    public var subtotal: String
    /// The voucher's discount, formatted; nil when none.
    public var discount: String?
    /// The voucher code, if any.
    public var voucherCode: String?
    /// The shipping method's name.
    public var shippingMethod: String
    /// What shipping costs, formatted.
    public var shippingCost: String
    /// The total the server charges, formatted.
    public var total: String

    /// The charges as the server priced them, written for `language`.
    init(lines: [V1OrderLine], subtotal: V1Money, discount: V1Money, voucherCode: String?, shippingMethod: String,
         shippingCost: V1Money, total: V1Money, language: Language) {
        self.lines = lines.map { OrderLineRow($0, language: language) }
        self.subtotal = subtotal.text(in: language.locale)
        self.discount = discount.minorUnits == 0 ? nil : discount.text(in: language.locale)
        self.voucherCode = voucherCode
        self.shippingMethod = shippingMethod
        self.shippingCost = shippingCost.text(in: language.locale)
        self.total = total.text(in: language.locale)
    }

    /// The lines and the sums as text.
    var snapshot: [String] {
        lines.map { "    \($0.snapshot)" }
            + ["    subtotal \(subtotal)" + (discount.map { ", discount −\($0)" + (voucherCode.map { " (\($0))" } ?? "") } ?? "")
               + ", \(shippingMethod) \(shippingCost), total \(total)"]
    }
}
