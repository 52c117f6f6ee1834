import Foundation
import ShopAPI
import ShopClient
import Synchronization

/// A value closures can share and change (what a fake operation records or serves).
final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func update<Result>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

let t0 = Date(timeIntervalSince1970: 1_780_000_000)

let homeAddress = V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0100", line1: "1 Main St",
                            city: "Springfield", postalCode: "12345", country: "US")

func orderLine(_ title: String = "Oak Chair", quantity: Int = 2, unit: Int64 = 129_00) -> V1OrderLine {
    V1OrderLine(productId: 1, variantId: 11, title: title, variantTitle: "", sku: nil, unitPrice: usd(unit),
                quantity: quantity, discount: usd(0), total: usd(unit * Int64(quantity)))
}

func order(_ number: String = "SH-1001", total: Int64 = 258_00, placedAt: Date = t0) -> V1Order {
    V1Order(number: number, status: "paid", placedAt: placedAt, email: "ana@example.com", shippingAddress: homeAddress,
            lines: [orderLine()], subtotal: usd(total), discount: usd(0), voucherCode: nil, shippingMethod: "Standard",
            shippingCost: usd(0), total: usd(total))
}

/// A checkout at `next`, with a quote totalling `total` once shipping is chosen.
func checkout(_ next: String, total: Int64 = 258_00, heldUntil: Date? = nil) -> V1Checkout {
    let standard = V1ShippingOption(id: "standard", name: "Standard", cost: usd(0))
    let atShipping = next == "shipping" || next == "review"
    let quote = next == "review"
        ? V1CheckoutQuote(lines: [orderLine()], subtotal: usd(total), discount: usd(0), voucherCode: nil,
                          shippingMethod: standard, total: usd(total), address: homeAddress)
        : nil
    return V1Checkout(email: "ana@example.com", address: atShipping ? homeAddress : nil, savedAddressId: nil,
                      shippingMethod: next == "review" ? "standard" : nil, shippingOptions: atShipping ? [standard] : [],
                      quote: quote, nextStep: next, heldUntil: heldUntil)
}
