public import ShopCore

/// Rows of `orders`, `order_lines` and the placement's variant read ↔ values, the same on every
/// engine: the column lists (the same SQL on SQLite and PostgreSQL), the decoding, and the values
/// an order is inserted with.
public enum StoredOrder {
    /// The columns ``order(_:lines:)`` reads, of `orders`.
    public static let columns = """
        id, number, status, placed_at, user_id, email,
        ship_first_name, ship_last_name, ship_phone, ship_email, ship_line1, ship_line2, ship_city,
        ship_postal_code, ship_region, ship_country_code, shipping_method, shipping_minor,
        subtotal_minor, discount_minor, total_minor, currency, voucher_code, carrier, tracking_number, language
        """

    /// The columns ``line(_:)`` reads, of `order_lines`.
    public static let lineColumns = """
        order_id, product_id, variant_id, title, variant_title, sku, unit_price_minor, quantity,
        discount_minor, total_minor, chosen_values, refunded_quantity
        """

    /// An order line as stored, before its order's currency is known.
    public struct StoredLine: Sendable {
        public var orderID: Int64
        var line: OrderLine
        var unitMinor: Int64
        var discountMinor: Int64
        var totalMinor: Int64
    }

    /// A line from a row of ``lineColumns``.
    public static func line(_ row: some StoredRow) throws -> StoredLine {
        let zero = Money.zero(.usd)  // re-priced in the order's currency by `order(_:lines:)`
        let line = OrderLine(productID: try row.optionalInt64(1).map { Product.ID($0) },
                             variantID: try row.optionalInt64(2).map { Variant.ID($0) }, title: try row.string(3),
                             variantTitle: try row.string(4), sku: try row.optionalString(5), unitPrice: zero,
                             quantity: Int(try row.int64(7)), discount: zero, total: zero,
                             chosen: ChosenValues(text: try row.string(10)), refundedQuantity: Int(try row.int64(11)))
        return StoredLine(orderID: try row.int64(0), line: line, unitMinor: try row.int64(6),
                          discountMinor: try row.int64(8), totalMinor: try row.int64(9))
    }

    /// An order from a row of ``columns`` and its lines (in order).
    public static func order(_ row: some StoredRow, lines: [StoredLine]) throws -> Order {
        let id = try row.int64(0)
        guard let status = OrderStatus(rawValue: try row.string(2)) else {
            throw StoredCatalog.CorruptValue(table: "orders", column: "status", rowID: id)
        }
        guard let currency = try? Currency(code: try row.string(21)) else {
            throw StoredCatalog.CorruptValue(table: "orders", column: "currency", rowID: id)
        }
        func money(_ index: Int) throws -> Money { Money(minorUnits: try row.int64(index), currency: currency) }
        let priced = lines.map { stored in
            var line = stored.line
            line.unitPrice = Money(minorUnits: stored.unitMinor, currency: currency)
            line.discount = Money(minorUnits: stored.discountMinor, currency: currency)
            line.total = Money(minorUnits: stored.totalMinor, currency: currency)
            return line
        }
        let address = Address(
            firstName: try row.string(6), lastName: try row.string(7), phone: try row.string(8),
            email: try row.optionalString(9), line1: try row.string(10), line2: try row.string(11),
            city: try row.string(12), postalCode: try row.string(13), region: try row.optionalString(14),
            countryCode: try row.string(15))
        var order = Order(id: Order.ID(id), number: try row.string(1), status: status,
                     placedAt: StoredTime.date(unixSeconds: try row.int64(3)),
                     userID: try row.optionalInt64(4).map { User.ID($0) }, email: try row.string(5),
                     shippingAddress: address,
                     quote: OrderQuote(lines: priced, subtotal: try money(18), discount: try money(19),
                                       voucherCode: try row.optionalString(22),
                                       shippingMethodName: try row.string(16), shippingCost: try money(17),
                                       total: try money(20)),
                     language: Language(rawValue: try row.string(25)) ?? .english)
        if let carrier = try row.optionalString(23), let tracking = try row.optionalString(24) {
            order.fulfilment = Fulfilment(storedCarrier: carrier, trackingNumber: tracking)
        }
        return order
    }

    /// The columns ``values(_:guestTokenHash:)`` fills, of `orders`, in order.
    public static let insertColumns = """
        id, number, status, placed_at, user_id, email,
        ship_first_name, ship_last_name, ship_phone, ship_email, ship_line1, ship_line2, ship_city,
        ship_postal_code, ship_region, ship_country_code, shipping_method, shipping_minor,
        subtotal_minor, discount_minor, total_minor, currency, voucher_code, guest_token_hash, language
        """

    /// What `orders` stores of an order.
    public static func values(_ order: Order, guestTokenHash: String?) -> [StoredValue] {
        let address = order.shippingAddress
        return [
            .integer(order.id.rawValue), .text(order.number), .text(order.status.rawValue),
            .integer(StoredTime.unixSeconds(order.placedAt)), StoredValue(order.userID?.rawValue), .text(order.email),
            .text(address.firstName), .text(address.lastName), .text(address.phone), StoredValue(address.email),
            .text(address.line1), .text(address.line2), .text(address.city), .text(address.postalCode),
            StoredValue(address.region), .text(address.countryCode), .text(order.shippingMethodName),
            .integer(order.shippingCost.minorUnits), .integer(order.subtotal.minorUnits),
            .integer(order.discount.minorUnits), .integer(order.total.minorUnits), .text(order.total.currency.code),
            StoredValue(order.voucherCode), StoredValue(guestTokenHash), .text(order.language.rawValue),
        ]
    }

    /// The columns ``lineValues(_:)`` fills, of `order_lines`, in order.
    public static let lineInsertColumns = """
        order_id, position, product_id, variant_id, title, variant_title, sku,
        unit_price_minor, quantity, discount_minor, total_minor, chosen_values
        """

    /// What `order_lines` stores of each of the order's lines, in order.
    public static func lineValues(_ order: Order) -> [[StoredValue]] {
        order.lines.enumerated().map { position, line in
            [.integer(order.id.rawValue), .integer(Int64(position)), StoredValue(line.productID?.rawValue),
             StoredValue(line.variantID?.rawValue), .text(line.title), .text(line.variantTitle), StoredValue(line.sku),
             .integer(line.unitPrice.minorUnits), .integer(Int64(line.quantity)), .integer(line.discount.minorUnits),
             .integer(line.total.minorUnits), .text(line.chosen.text)]
        }
    }

    /// The columns ``placementVariant(_:id:)`` reads, of `variants v JOIN products p LEFT JOIN categories c`.
    public static let placementColumns = """
        v.product_id, p.handle, p.title, p.category_id, c.handle, v.option_values, v.sku, v.price_minor,
        v.currency, v.inventory_tracked, v.allow_backorder, v.stock, p.option_names, v.option_choices
        """

    /// What the placement decision reads of variant `id`, from a row of ``placementColumns``.
    public static func placementVariant(_ row: some StoredRow, id: Variant.ID) throws -> PlacementVariant {
        guard let optionValues = JSONStringArray.decode(try row.string(5)),
              let currency = try? Currency(code: try row.string(8)) else {
            throw StoredCatalog.CorruptValue(table: "variants", column: "option_values/currency", rowID: id.rawValue)
        }
        let inventory: Inventory = try row.bool(9)
            ? .tracked(quantity: Int(try row.int64(11)), allowsBackorder: try row.bool(10)) : .untracked
        let variant = Variant(id: id, sku: try row.optionalString(6), optionValues: optionValues,
                              price: Money(minorUnits: try row.int64(7), currency: currency), compareAtPrice: nil,
                              inventory: inventory,
                              optionChoices: try StoredCatalog.optionChoices(try row.optionalString(13), rowID: id.rawValue))
        let product = Product(id: Product.ID(try row.int64(0)), handle: try row.string(1), title: try row.string(2),
                              categoryID: try row.optionalInt64(3).map { Category.ID($0) },
                              optionNames: JSONStringArray.decode(try row.string(12)) ?? [], variants: [variant])
        return PlacementVariant(product: product, variant: variant, categoryHandle: try row.optionalString(4))
    }
}
