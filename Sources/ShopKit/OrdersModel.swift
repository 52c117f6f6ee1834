public import Foundation
public import Observation
public import ShopAPI
public import ShopCore
import ShopClient

/// An order in the list of orders.
public struct OrderRow: Identifiable, Hashable, Sendable {
    /// The order number (`ShopOperations.order`, deep links).
    public var id: String { number }
    /// The order number, e.g. `"SH-1001"`.
    public var number: String
    /// The status code: `paid`, `shipped`, `cancelled` (the view names it).
    public var status: String
    /// When it was placed, as the locale writes a date.
    public var placedAt: String
    /// How many items.
    public var itemCount: Int
    /// What it cost, formatted.
    public var total: String

    /// The row of `order`, written for `language` with dates in `timeZone`.
    public init(_ order: V1Order, language: Language, timeZone: TimeZone) {
        number = order.number
        status = order.status
        placedAt = language.date(order.placedAt, timeZone: timeZone)
        itemCount = order.lines.reduce(0) { $0 + $1.quantity }
        total = order.total.text(in: language.locale)
    }
}

/// One order, as its page (and checkout's confirmation) shows it.
public struct OrderDetail: Hashable, Sendable {
    /// The order number.
    public var number: String
    /// The status code: `paid`, `shipped`, `cancelled`.
    public var status: String
    /// When it was placed, as the locale writes a date.
    public var placedAt: String
    /// Where the confirmation went.
    public var email: String
    /// The shipping address as label lines.
    public var shipTo: [String]
    /// What it charged, line by line.
    public var charges: ChargeLines
    /// A guest's token for reading the order again (`ShopOperations.order`), if given.
    public var guestToken: String?
    /// What the shop has refunded so far, formatted; nil while nothing is (`V1Order.refunded`).
    public var refunded: String?

    /// The detail of `order`, written for `language` with dates in `timeZone`.
    public init(_ order: V1Order, language: Language, timeZone: TimeZone) {
        number = order.number
        status = order.status
        placedAt = language.date(order.placedAt, timeZone: timeZone)
        email = order.email
        shipTo = order.shippingAddress.lines(in: language)
        charges = ChargeLines(lines: order.lines, subtotal: order.subtotal, discount: order.discount,
                               voucherCode: order.voucherCode, shippingMethod: order.shippingMethod,
                               shippingCost: order.shippingCost, total: order.total, language: language)
        guestToken = order.guestToken
        refunded = order.refunded.flatMap { $0.minorUnits == 0 ? nil : $0.text(in: language.locale) }
    }

    /// The order as text.
    var snapshot: String {
        (["Order \(number) (\(status)), placed \(placedAt), to \(shipTo.joined(separator: ", "))"] + charges.snapshot
            + (refunded.map { ["Refunded \($0)"] } ?? []))
            .joined(separator: "\n")
    }
}

/// The orders screen: the signed-in account's orders, newest first, and one order.
///
/// Inputs: ``load()``, ``open(_:guestToken:)``. Outputs: ``state`` (``LoadState/empty`` when
/// there are none; ``LoadState/failed(_:)`` with the server's `sign_in_required` for a guest)
/// and ``detail``.
@MainActor
@Observable
public final class OrdersModel {
    /// The orders as loaded.
    public private(set) var state: LoadState<[OrderRow]> = .idle
    /// The order opened last.
    public private(set) var detail: LoadState<OrderDetail> = .idle
    /// The language of the texts.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored private let timeZone: TimeZone
    /// The app's connectivity: loads report to it, and run again when the shop answers after an offline failure.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, written for `language` with dates in `timeZone` (the shop's), its
    /// requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, timeZone: TimeZone = .current,
                connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.timeZone = timeZone
        self.connectivity = connectivity
    }

    /// Loads the orders.
    public func load() async {
        state = .loading
        state = await connectivity.list("orders", retry: { [weak self] in await self?.load() },
                                        { [shop] in try await shop.orders() }) {
            OrderRow($0, language: language, timeZone: timeZone)
        }
    }

    /// Loads the order `number` (a guest's with the `guestToken` given at placing).
    public func open(_ number: String, guestToken: String? = nil) async {
        detail = .loading
        do {
            let order = try await connectivity.send { [shop] in try await shop.order(number, guestToken) }
            detail = .loaded(OrderDetail(order, language: language, timeZone: timeZone))
        } catch {
            detail = LoadState(NetworkError(error))
        }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        var lines: [String]
        if case let .loaded(rows) = state {
            lines = ["[Orders]"] + rows.map { "  \($0.number) \($0.placedAt) \($0.status) \($0.itemCount) item(s) \($0.total)" }
        } else {
            lines = ["[Orders] \(state)"]
        }
        if case let .loaded(order) = detail { lines.append("  " + order.snapshot) }
        return lines.joined(separator: "\n")
    }
}
