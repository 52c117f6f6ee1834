import Foundation
import ShopCore
import Testing

/// Refunds of some units of an order's lines (issue #16): amounts shared evenly and rounded
/// down per step, so that every unit refunded, in any steps, gives back exactly the line.
@Suite("Order refunds")
struct OrderRefundTests {
    static func order(_ lines: [(quantity: Int, totalMinor: Int64, refunded: Int)]) -> Order {
        Order(id: 1, number: "1001-ABCD", status: .paid, placedAt: Date(timeIntervalSince1970: 0), userID: nil, email: "a@b.co",
              shippingAddress: Address(firstName: "A", lastName: "B", phone: "1", line1: "1", city: "X", postalCode: "1", countryCode: "US"),
              quote: OrderQuote(lines: lines.map { line in
                  OrderLine(productID: nil, variantID: Variant.ID(Int64(line.totalMinor)), title: "Item", variantTitle: "", sku: nil,
                            unitPrice: Money(minorUnits: line.totalMinor / Int64(line.quantity), currency: .usd), quantity: line.quantity,
                            discount: Money(minorUnits: 0, currency: .usd), total: Money(minorUnits: line.totalMinor, currency: .usd),
                            refundedQuantity: line.refunded)
              }, subtotal: Money(minorUnits: 0, currency: .usd), discount: Money(minorUnits: 0, currency: .usd), voucherCode: nil,
                 shippingMethodName: "S", shippingCost: Money(minorUnits: 0, currency: .usd),
                 total: Money(minorUnits: lines.reduce(0) { $0 + $1.totalMinor }, currency: .usd)))
    }

    /// A line of 3 units costing 10.00 after its discount: refunded one unit at a time, then
    /// two and one, then all three at once — always 10.00 in all.
    @Test(arguments: [[1, 1, 1], [2, 1], [1, 2], [3]])
    func refundingEveryUnitGivesBackTheLinesTotalExactly(steps: [Int]) throws {
        var order = Self.order([(3, 10_00, 0)])
        var given: Int64 = 0
        for units in steps {
            let plan = try order.refundPlan([LineRefund(line: 1, quantity: units)])
            given += plan.total.minorUnits
            order.quote.lines[0].refundedQuantity += units
        }
        #expect(given == 10_00 && order.refundedTotal.minorUnits == 10_00)
    }

    @Test func aPlanListsEachLineWithItsAmountAndVariant() throws {
        let plan = try Self.order([(3, 10_00, 1), (2, 5_00, 0)]).refundPlan([LineRefund(line: 1, quantity: 1), LineRefund(line: 2, quantity: 2)])
        #expect(plan.lines.map(\.amount.minorUnits) == [3_33, 5_00] && plan.total.minorUnits == 8_33)
        #expect(plan.lines.map(\.variantID) == [Variant.ID(10_00), Variant.ID(5_00)])
    }

    @Test(arguments: [
        ([LineRefund(line: 1, quantity: 0)], RefundError.nothingToRefund),
        ([], .nothingToRefund),
        ([LineRefund(line: 3, quantity: 1)], .unknownLine(3)),
        ([LineRefund(line: 0, quantity: 1)], .unknownLine(0)),
        ([LineRefund(line: 1, quantity: 3)], .quantityNotAvailable(line: 1, remaining: 2)),
        ([LineRefund(line: 1, quantity: -1)], .quantityNotAvailable(line: 1, remaining: 2)),
        ([LineRefund(line: 2, quantity: 1), LineRefund(line: 2, quantity: 1)], .repeatedLine(2)),
    ] as [([LineRefund], RefundError)])
    func aRefundThatDoesNotFitIsRefused(refunds: [LineRefund], error: RefundError) {
        #expect(throws: error) { try Self.order([(3, 10_00, 1), (2, 5_00, 0)]).refundPlan(refunds) }
    }
}
