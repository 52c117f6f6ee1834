public import Foundation

/// What the back office's dashboard says about sales (issue #16, point 7), from the orders
/// placed in the last `days` days — decided here, once, from the orders as stored.
///
/// Sales are what customers keep paying for: every order that is not cancelled, at its total
/// less what its lines' refunds gave back. The average order is those sales over those orders,
/// rounded down to the minor unit.
public struct SalesSummary: Hashable, Sendable {
    /// One day of the shop's time zone.
    public struct Day: Hashable, Sendable {
        /// Its start.
        public var start: Date
        public var orders: Int
        public var sales: Money
    }

    /// A product's units and sales in the period.
    public struct ProductSales: Hashable, Sendable {
        public var title: String
        public var units: Int
        public var sales: Money
    }

    /// The period's days, oldest first; the last is today.
    public var days: [Day]
    public var orders: Int
    public var sales: Money
    /// Nil without orders.
    public var averageOrder: Money?
    /// The best sellers by units (then sales, then title), at most five.
    public var topProducts: [ProductSales]

    /// Today: the last of ``days``.
    public var today: Day { days[days.count - 1] }

    /// - Parameters:
    ///   - orders: the orders placed since the first day's start (others are left out).
    ///   - now: today is the day `now` falls in, in `timeZone`.
    ///   - currency: the shop's; orders in another currency are left out of the sums.
    public init(orders: [Order], days count: Int = 30, now: Date, timeZone: TimeZone, currency: Currency) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: now)
        let starts = (0..<max(1, count)).reversed().map { calendar.date(byAdding: .day, value: -$0, to: today) ?? today }
        var perDay = starts.map { Day(start: $0, orders: 0, sales: Money(minorUnits: 0, currency: currency)) }
        // By product (a renamed one is one product, named as its latest order names it); a line
        // whose product is gone, by its title.
        var products: [String: ProductSales] = [:]
        var namedAt: [String: Date] = [:]
        var total: Int64 = 0, counted = 0
        for order in orders where order.status != .cancelled && order.total.currency == currency {
            let day = calendar.startOfDay(for: order.placedAt)
            guard let index = starts.firstIndex(of: day) else { continue }
            let kept = order.total.minorUnits - order.refundedTotal.minorUnits
            perDay[index].orders += 1
            perDay[index].sales = Money(minorUnits: perDay[index].sales.minorUnits + kept, currency: currency)
            total += kept
            counted += 1
            for line in order.lines where line.quantity > line.refundedQuantity {
                let key = line.productID.map { "product \($0.rawValue)" } ?? "title " + line.title
                var entry = products[key] ?? ProductSales(title: line.title, units: 0, sales: Money(minorUnits: 0, currency: currency))
                if namedAt[key].map({ order.placedAt >= $0 }) ?? true {
                    entry.title = line.title
                    namedAt[key] = order.placedAt
                }
                entry.units += line.quantity - line.refundedQuantity
                entry.sales = Money(minorUnits: entry.sales.minorUnits + line.total.minorUnits - line.refunded.minorUnits, currency: currency)
                products[key] = entry
            }
        }
        days = perDay
        self.orders = counted
        sales = Money(minorUnits: total, currency: currency)
        averageOrder = counted == 0 ? nil : Money(minorUnits: total / Int64(counted), currency: currency)
        topProducts = Array(products.values.sorted {
            ($0.units, $0.sales.minorUnits, $1.title) > ($1.units, $1.sales.minorUnits, $0.title)
        }.prefix(5))
    }
}
