import Foundation
import ShopAPI
import ShopClient
@testable import ShopKit
import Synchronization

let enUS = Locale(identifier: "en_US")
let token = Credentials(accessToken: "guest-token")

func usd(_ minorUnits: Int64) -> V1Money {
    V1Money(minorUnits: minorUnits, currency: "USD", formatted: "server:\(minorUnits)")
}

func summary(_ id: Int64, _ handle: String, price: Int64 = 10_00) -> V1ProductSummary {
    V1ProductSummary(id: id, handle: handle, title: handle.capitalized, vendor: "Acme", price: usd(price), image: nil,
                     rating: V1Rating(rateHundredths: 392, count: 7), soldOut: false)
}

/// A cart server in memory, priced like the real one at $10.00 a unit, whose answers a test can
/// hold back (``hold()``/``release()``) and refuse (``refuse``).
actor FakeCartServer {
    struct Entry {
        var variantID: Int64
        var quantity: Int
        var selected = true
    }

    var entries: [Entry]
    var voucher: V1Cart.Voucher?
    /// Every `PATCH` in the order received: (variant, quantity, selected).
    private(set) var updates: [(Int64, Int?, Bool?)] = []
    /// Quantities refused with a 409 (`quantity_exceeds_stock`).
    var refusedQuantities: Set<Int> = []
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    init(_ entries: [Entry]) { self.entries = entries }

    func setRefused(_ quantities: Set<Int>) { refusedQuantities = quantities }
    func hold() { holding = true }
    var heldCount: Int { held.count }
    func release() {
        holding = false
        for continuation in held { continuation.resume() }
        held.removeAll()
    }

    private func gate() async {
        if holding { await withCheckedContinuation { held.append($0) } }
    }

    func cart() -> V1Cart {
        let lines = entries.map { entry in
            V1Cart.Line(variantId: entry.variantID, productId: entry.variantID, handle: "p\(entry.variantID)",
                        title: "Product \(entry.variantID)", variantTitle: "", image: nil, quantity: entry.quantity,
                        selected: entry.selected, unitPrice: usd(10_00), amount: usd(Int64(entry.quantity) * 10_00),
                        discount: usd(0), total: usd(Int64(entry.quantity) * 10_00), quantityLimit: 5, problem: nil)
        }
        let subtotal = lines.filter(\.selected).reduce(0) { $0 + $1.amount.minorUnits }
        return V1Cart(lines: lines, subtotal: usd(subtotal), discount: usd(0), total: usd(subtotal),
                      itemCount: lines.reduce(0) { $0 + $1.quantity },
                      selectedItemCount: lines.filter(\.selected).reduce(0) { $0 + $1.quantity },
                      voucher: voucher, unavailable: [])
    }

    func update(_ variantID: Int64, _ quantity: Int?, _ selected: Bool?) async throws -> V1Cart {
        updates.append((variantID, quantity, selected))
        await gate()
        if let quantity, refusedQuantities.contains(quantity) {
            throw NetworkError.serverError(status: 409, code: "quantity_exceeds_stock", message: "Only 5 left.")
        }
        guard let index = entries.firstIndex(where: { $0.variantID == variantID }) else {
            throw NetworkError.serverError(status: 404, code: "not_found", message: "No such line.")
        }
        if let quantity { entries[index].quantity = quantity }
        if let selected { entries[index].selected = selected }
        return cart()
    }

    func remove(_ variantID: Int64) async throws -> V1Cart {
        await gate()
        entries.removeAll { $0.variantID == variantID }
        return cart()
    }

    func add(_ line: V1AddLine) async throws -> V1Cart {
        await gate()
        let id = line.variantId ?? line.productId ?? 1
        let quantity = NSDecimalNumber(decimal: line.quantity ?? 1).intValue
        if let index = entries.firstIndex(where: { $0.variantID == id }) {
            entries[index].quantity += quantity
        } else {
            entries.append(Entry(variantID: id, quantity: quantity))
        }
        return cart()
    }

    /// `ShopOperations` over this server, signed in as a guest.
    nonisolated func operations() -> ShopOperations {
        var shop = ShopOperations.failing
        shop.credentials = { token }
        shop.cart = { await self.cart() }
        shop.updateLine = { try await self.update($0.variantID, $1, $2) }
        shop.removeLine = { try await self.remove($0.variantID) }
        shop.addLine = { try await self.add($0) }
        return shop
    }
}

/// Yields to other tasks until `condition` holds, for up to 30 seconds: first by yielding, then
/// by sleeping a millisecond between tries, so a test starved of CPU by the parallel run (two
/// cores, hundreds of tests) waits for the work it awaits instead of failing — while one whose
/// condition never holds still ends.
@MainActor
func eventually(_ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    var tries = 0
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        tries += 1
        if tries < 1_000 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return await condition()
}

/// A value several closures record into.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    init() {}
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
