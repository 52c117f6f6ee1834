import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing

/// The shopper's emails about their order's steps (issue #16), step by step.
@Suite("Order step emails")
struct OrderEmailsTests {
    static func order(_ status: OrderStatus, account: Bool = false, language: Language = .english,
                      shipping: Money = .usd(4_90)) -> Order {
        let line = OrderLine(productID: nil, variantID: nil, title: "Desk Lamp", variantTitle: "", sku: nil, unitPrice: .usd(30_00),
                             quantity: 1, discount: .usd(0), total: .usd(30_00))
        return Order(id: 1, number: "1001-ABCD", status: status, placedAt: Date(timeIntervalSince1970: 0),
                     userID: account ? User.ID(7) : nil, email: "ana@example.com",
                     shippingAddress: Address(firstName: "Ana", lastName: "Lima", phone: "1", line1: "1 Main St", city: "X",
                                              postalCode: "1", countryCode: "US"),
                     quote: OrderQuote(lines: [line], subtotal: .usd(30_00), discount: .usd(0), voucherCode: nil,
                                       shippingMethodName: "Standard", shippingCost: shipping,
                                       total: .usd(30_00 + shipping.minorUnits)),
                     language: language)
    }

    static let ups = try! Fulfilment(carrier: "UPS", trackingNumber: "1Z999")

    @Test(arguments: [
        (OrderAction.markPaid, OrderStatus.awaitingPayment, false, "Payment received for order 1001-ABCD", "We received your payment for order 1001-ABCD ($34.90)"),
        (.fulfil, .paid, false, "Your order 1001-ABCD is on its way", "was handed to UPS.\nTracking number: 1Z999"),
        (.cancel, .awaitingPayment, false, "Your order 1001-ABCD was cancelled", "was cancelled.\n"),
        (.cancel, .awaitingPayment, true, "Your order 1001-ABCD was cancelled", "was cancelled. We did not receive its payment in time."),
        (.cancel, .paid, false, "Your order 1001-ABCD was cancelled", "We will refund the $34.90 you paid."),
    ] as [(OrderAction, OrderStatus, Bool, String, String)])
    func eachStepSaysWhatHappened(action: OrderAction, from: OrderStatus, unpaid: Bool, subject: String, says: String) throws {
        let email = try #require(OrderEmails.step(action, order: Self.order(from), fulfilment: Self.ups, publicURL: "https://shop.test",
                                                  unpaidInTime: unpaid, now: Date()))
        #expect(email.subject == subject && email.toAddress == "ana@example.com" && email.toName == "Ana Lima")
        #expect(email.textBody.hasPrefix("Hi Ana,") && email.textBody.contains(says))
    }

    /// A cancel after line refunds promises what is still owed, or nothing more (a fresh tester's
    /// email promised the whole payment again after a partial refund).
    @Test func aCancelAfterRefundsPromisesOnlyWhatIsOwed() throws {
        var partly = Self.order(.paid)
        partly.quote.lines[0].refundedQuantity = 1
        let rest = try #require(OrderEmails.step(.cancel, order: partly, fulfilment: nil, publicURL: "https://shop.test", now: Date()))
        #expect(rest.textBody.contains("We will refund the $4.90 still owed ($30.00 was refunded earlier)."), "\(rest.textBody)")
        var wholly = Self.order(.paid, shipping: .usd(0))
        wholly.quote.lines[0].refundedQuantity = 1
        let none = try #require(OrderEmails.step(.cancel, order: wholly, fulfilment: nil, publicURL: "https://shop.test", now: Date()))
        #expect(none.textBody.contains("Your payment was already refunded in full.") && !none.textBody.contains("We will refund"))
        #expect(wholly.refundDueOnCancel == .usd(0) && partly.refundDueOnCancel == .usd(4_90))
    }

    @Test func deliveredAndIllegalStepsEmailNobody() {
        #expect(OrderEmails.step(.markDelivered, order: Self.order(.fulfilled), fulfilment: nil, publicURL: "", now: Date()) == nil)
        #expect(OrderEmails.step(.markPaid, order: Self.order(.cancelled), fulfilment: nil, publicURL: "", now: Date()) == nil)
    }

    @Test func anAccountsOrderLinksToItsPageAGuestsToTheirConfirmation() throws {
        let account = try #require(OrderEmails.step(.markPaid, order: Self.order(.awaitingPayment, account: true),
                                                    fulfilment: nil, publicURL: "https://shop.test", now: Date()))
        #expect(account.textBody.contains("You can see your order here:\nhttps://shop.test/orders/1001-ABCD"))
        let spanish = try #require(OrderEmails.step(.markPaid, order: Self.order(.awaitingPayment, language: .spanish),
                                                    fulfilment: nil, publicURL: "https://shop.test", now: Date()))
        #expect(spanish.subject == "Hemos recibido el pago del pedido 1001-ABCD"
                && spanish.textBody.contains("El enlace del correo de confirmación de tu pedido muestra tu pedido."))
    }
}
