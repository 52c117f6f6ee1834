import Foundation
import ShopCore
import Testing

/// The dashboard's sales (issue #16, point 7): per day in the shop's time zone, cancelled orders
/// and refunds left out, the average rounded down, best sellers by units.
@Suite("Sales summary")
struct SalesSummaryTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
    static let istanbul = TimeZone(identifier: "Europe/Istanbul")!

    static func order(_ id: Int64, hoursAgo: Double, status: OrderStatus = .paid, lines: [(String, Int, Int64, Int)]) -> Order {
        let orderLines = lines.map { title, quantity, totalMinor, refunded in
            OrderLine(productID: nil, variantID: nil, title: title, variantTitle: "", sku: nil,
                      unitPrice: Money(minorUnits: totalMinor / Int64(quantity), currency: .usd), quantity: quantity,
                      discount: Money(minorUnits: 0, currency: .usd), total: Money(minorUnits: totalMinor, currency: .usd),
                      refundedQuantity: refunded)
        }
        let total = orderLines.reduce(0) { $0 + $1.total.minorUnits }
        return Order(id: Order.ID(id), number: "\(id)", status: status, placedAt: now.addingTimeInterval(-hoursAgo * 3_600),
                     userID: nil, email: "a@b.co",
                     shippingAddress: Address(firstName: "A", lastName: "B", phone: "1", line1: "1", city: "X", postalCode: "1",
                                              countryCode: "US"),
                     quote: OrderQuote(lines: orderLines, subtotal: Money(minorUnits: total, currency: .usd),
                                       discount: Money(minorUnits: 0, currency: .usd), voucherCode: nil, shippingMethodName: "S",
                                       shippingCost: Money(minorUnits: 0, currency: .usd), total: Money(minorUnits: total, currency: .usd)))
    }

    /// A renamed product is one best seller, under its latest order's title (a fresh tester saw
    /// "Title A 4 sold" beside "Spindle Back Chair 1 sold"); a line whose product is gone counts
    /// by its title.
    @Test func aRenamedProductIsOneBestSellerUnderItsLatestTitle() {
        func withProduct(_ order: Order, _ id: Int64?) -> Order {
            var order = order
            for index in order.quote.lines.indices { order.quote.lines[index].productID = id.map { Product.ID($0) } }
            return order
        }
        let orders = [
            withProduct(Self.order(1, hoursAgo: 5, lines: [("Spindle Back Chair", 1, 10_00, 0)]), 2),
            withProduct(Self.order(2, hoursAgo: 1, lines: [("Title A", 4, 40_00, 0)]), 2),
            withProduct(Self.order(3, hoursAgo: 3, lines: [("Title A", 1, 5_00, 0)]), nil),
        ]
        let top = SalesSummary(orders: orders, now: Self.now, timeZone: Self.istanbul, currency: .usd).topProducts
        #expect(top.map(\.title) == ["Title A", "Title A"] && top.map(\.units) == [5, 1], "\(top)")
    }

    @Test func salesArePerDayWithoutCancelledOrdersOrRefunds() {
        let orders = [
            Self.order(1, hoursAgo: 1, lines: [("Lamp", 2, 60_00, 0)]),                      // today (23:26 in Istanbul)
            Self.order(2, hoursAgo: 2, lines: [("Mug", 3, 30_00, 1)]),                       // today, one mug refunded
            Self.order(3, hoursAgo: 3, status: .cancelled, lines: [("Lamp", 1, 30_00, 0)]),  // left out
            Self.order(4, hoursAgo: 24, lines: [("Mug", 1, 10_00, 0)]),                      // yesterday
            Self.order(5, hoursAgo: 24 * 40, lines: [("Chair", 1, 99_00, 0)]),               // before the 30 days
        ]
        let summary = SalesSummary(orders: orders, now: Self.now, timeZone: Self.istanbul, currency: .usd)
        #expect(summary.days.count == 30)
        #expect(summary.today.orders == 2 && summary.today.sales.minorUnits == 80_00)
        #expect(summary.days[28].orders == 1 && summary.days[28].sales.minorUnits == 10_00)
        #expect(summary.orders == 3 && summary.sales.minorUnits == 90_00)
        #expect(summary.averageOrder?.minorUnits == 30_00)
        #expect(summary.topProducts.map { "\($0.title) \($0.units) \($0.sales.minorUnits)" } == ["Mug 3 3000", "Lamp 2 6000"],
                "by units: the refunded mug is not counted")
    }

    @Test func theAverageIsRoundedDownAndAbsentWithoutOrders() {
        let three = (1...3).map { Self.order(Int64($0), hoursAgo: 1, lines: [("Pen", 1, $0 == 1 ? 1_01 : 1_00, 0)]) }
        #expect(SalesSummary(orders: three, now: Self.now, timeZone: Self.istanbul, currency: .usd).averageOrder?.minorUnits == 1_00)
        #expect(SalesSummary(orders: [], now: Self.now, timeZone: Self.istanbul, currency: .usd).averageOrder == nil)
    }

    /// A day is the shop's: an order at 22:30 UTC is the next day in Istanbul (UTC+3).
    @Test func daysAreTheShopsTimeZones() {
        let late = Self.order(1, hoursAgo: 0, lines: [("Pen", 1, 1_00, 0)])
        let utc = SalesSummary(orders: [late], now: Self.now, timeZone: TimeZone(identifier: "UTC")!, currency: .usd)
        let istanbul = SalesSummary(orders: [late], now: Self.now, timeZone: Self.istanbul, currency: .usd)
        #expect(utc.today.orders == 1 && istanbul.today.orders == 1)
        #expect(utc.today.start != istanbul.today.start)
    }
}
