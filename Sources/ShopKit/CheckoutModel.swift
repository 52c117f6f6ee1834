public import Foundation
public import Observation
public import ShopAPI
public import ShopCore
import ShopClient

/// A shipping method checkout offers.
public struct ShippingOptionRow: Identifiable, Hashable, Sendable {
    /// The method's id (``CheckoutModel/chooseShipping(_:)``).
    public var id: String
    /// Its name, e.g. `"Standard"`.
    public var name: String
    /// What it costs, formatted.
    public var cost: String
    /// Whether it is the chosen one.
    public var isChosen: Bool
}

/// What the review step shows: the order as it will be charged.
public struct CheckoutReview: Hashable, Sendable {
    /// The lines and sums the server priced.
    public var charges: ChargeLines
    /// The shipping address as label lines.
    public var shipTo: [String]

    /// The review of `quote`, written for `language`.
    public init(_ quote: V1CheckoutQuote, language: Language) {
        charges = ChargeLines(lines: quote.lines, subtotal: quote.subtotal, discount: quote.discount,
                               voucherCode: quote.voucherCode, shippingMethod: quote.shippingMethod.name,
                               shippingCost: quote.shippingMethod.cost, total: quote.total, language: language)
        shipTo = quote.address.lines(in: language)
    }
}

/// Checkout: address → shipping → review (the stock held, with a countdown) → place the order.
///
/// Inputs: ``start()``; ``useSavedAddress(_:)`` or ``useAddress(_:email:save:)``;
/// ``chooseShipping(_:)``; ``placeOrder()``; ``renewHold()`` once the hold ran out; ``tick()``
/// (or ``runCountdown()`` in a task) for the countdown. Outputs: ``step``, the step's data
/// (``savedAddresses``, ``shippingOptions``, ``review``, ``holdRemaining``), ``order`` once
/// placed, and ``notice`` for what the shop said.
///
/// **Idempotent placing.** Each order attempt has one idempotency key
/// (``idempotencyKey``): a retry after a failure (offline, a timeout, a 5xx, a changed order to
/// confirm) sends the same key, so the shop places the order at most once; after a success the
/// next order gets a new key. A `409 confirmation_needed` (something charged changed since the
/// review) shows the new review — the shop has already held it — and waits for the shopper to
/// place it again.
///
/// Time is injected (`now`, `sleep`) so the countdown is tested with a test clock.
@MainActor
@Observable
public final class CheckoutModel {
    /// The step checkout is at.
    public enum Step: Hashable, Sendable {
        /// Asking the shop where checkout stands.
        case loading
        /// Nothing selected in the cart: back to the cart.
        case cart
        /// Choose or enter the shipping address (and a guest's email).
        case address
        /// Choose a shipping method.
        case shipping
        /// Check the order; the stock is held until ``CheckoutModel/heldUntil``.
        case review
        /// The order is on its way to the shop.
        case placing
        /// Placed: ``CheckoutModel/order``.
        case placed
        /// The shop could not be reached (a retry keeps the idempotency key).
        case offline
        /// The shop refused, with its message.
        case failed(String)
    }

    /// The step checkout is at.
    public private(set) var step: Step = .loading
    /// The account's saved addresses (empty for a guest).
    public private(set) var savedAddresses: [AddressRow] = []
    /// The chosen address as label lines, once chosen.
    public private(set) var address: [String]?
    /// The email the confirmation goes to (the account's, or the guest's as given).
    public private(set) var email: String?
    /// The shipping methods to the chosen address.
    public private(set) var shippingOptions: [ShippingOptionRow] = []
    /// The order as it will be charged (the review step).
    public private(set) var review: CheckoutReview?
    /// When the hold on the stock ends (the server's time).
    public private(set) var heldUntil: Date?
    /// The hold's end as the locale writes a time ("3:05 PM GMT+3").
    public private(set) var holdEnds: String?
    /// Whole seconds left of the hold (``tick()``), nil without a hold.
    public private(set) var holdSecondsLeft: Int?
    /// The problems of the address form last given, by field.
    public private(set) var fieldErrors: [AddressField: [String]] = [:]
    /// What the shop said about the last action (a changed order, sold-out stock), if anything.
    public private(set) var notice: String?
    /// The placed order.
    public private(set) var order: OrderDetail?
    /// The key of the order attempt in progress: kept across retries, renewed after a success.
    public private(set) var idempotencyKey: String?
    /// The language of the texts.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored private let timeZone: TimeZone
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private let makeKey: @Sendable () -> String
    @ObservationIgnored private let orderPlaced: @MainActor (V1Order) async -> Void
    /// The app's connectivity: every request reports to it; placing waits for the network.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`.
    /// - Parameters:
    ///   - shop: the shop's operations.
    ///   - language: the language of the texts.
    ///   - timeZone: the shop's time zone (order dates, the hold's end).
    ///   - now: the current time (a test clock in tests).
    ///   - sleep: waits a duration (``runCountdown()``; tests pass one that moves their clock).
    ///   - makeIdempotencyKey: a new order attempt's key (default a UUID).
    ///   - orderPlaced: called after an order is placed (the app refreshes the cart and orders).
    ///   - connectivity: the app's connectivity (`AppModel.connectivity`).
    public init(shop: ShopOperations, language: Language = .english, timeZone: TimeZone = .current,
                connectivity: Connectivity = .manual(),
                now: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                makeIdempotencyKey: @escaping @Sendable () -> String = { UUID().uuidString },
                orderPlaced: @escaping @MainActor (V1Order) async -> Void = { _ in }) {
        self.shop = shop
        self.language = language
        self.timeZone = timeZone
        self.now = now
        self.sleep = sleep
        self.makeKey = makeIdempotencyKey
        self.orderPlaced = orderPlaced
        self.connectivity = connectivity
    }

    // MARK: Steps

    /// Asks where checkout stands and goes to that step (holding the stock when it is the review).
    public func start() async {
        step = .loading
        order = nil
        if shop.credentials() != nil {
            savedAddresses = ((try? await connectivity.send { [shop] in try await shop.addresses() }) ?? []).map { AddressRow($0, language: language) }
        }
        await send { try await self.shop.checkout() }
    }

    /// Ships to the saved address `id`.
    public func useSavedAddress(_ id: Int64) async {
        await send { try await self.shop.setAddress(V1CheckoutAddress(savedAddressId: id)) }
    }

    /// Ships to the address in `form` (checked first with ShopCore's `AddressRules`).
    /// - Parameters:
    ///   - form: the address as typed.
    ///   - email: a guest's email for the confirmation (nil when signed in).
    ///   - save: also saves it in the account's address book.
    public func useAddress(_ form: AddressForm, email: String? = nil, save: Bool = false) async {
        fieldErrors = form.errors(in: language)
        if let email {
            do { _ = try EmailRules.normalize(email) } catch { fieldErrors[.email, default: []].append(error.message(in: language)) }
        }
        guard fieldErrors.isEmpty, let address = form.address else { return }
        await send { try await self.shop.setAddress(V1CheckoutAddress(address: address, email: email, saveAddress: save)) }
    }

    /// Chooses the shipping method `id`, then reviews the order (holding its stock).
    public func chooseShipping(_ id: String) async {
        await send { try await self.shop.setShipping(id) }
    }

    /// Reviews the order again once the hold ran out (or to see a changed order).
    public func renewHold() async {
        await send { try await self.shop.review() }
    }

    /// Places the order under the attempt's idempotency key (see the type's documentation).
    public func placeOrder() async {
        guard step == .review || step == .offline || isFailure, review != nil, !holdExpired else { return }
        let key = idempotencyKey ?? makeKey()
        idempotencyKey = key
        step = .placing
        do {
            let placed = try await connectivity.send { [shop] in try await shop.placeOrder(key) }
            idempotencyKey = nil
            order = OrderDetail(placed, language: language, timeZone: timeZone)
            heldUntil = nil
            holdSecondsLeft = nil
            notice = nil
            step = .placed
            await orderPlaced(placed)
        } catch {
            switch NetworkError(error) {
            case .offline:
                step = .offline
            case let .serverError(_, code: "confirmation_needed", message):
                // The shop reviewed the order as it is now and holds it: show that review. The
                // attempt (and its key) goes on.
                notice = message
                await send { try await self.shop.review() }
            case let .serverError(status: 409, _, message):
                // Stock ran out or a step is missing: back to where checkout stands.
                notice = message
                await send { try await self.shop.checkout() }
            case let error:
                step = .failed(error.message)
            }
        }
    }

    private var isFailure: Bool { if case .failed = step { true } else { false } }

    /// Sends a checkout step and shows its answer (a review when the shop says it is ready).
    private func send(_ request: @escaping @Sendable () async throws -> V1Checkout) async {
        do {
            var checkout = try await connectivity.send(request)
            if checkout.nextStep == "review" && checkout.heldUntil == nil {
                checkout = try await connectivity.send { [shop] in try await shop.review() }
            }
            apply(checkout)
        } catch {
            let error = NetworkError(error)
            if case .offline = error { step = .offline } else { step = .failed(error.message) }
        }
    }

    private func apply(_ checkout: V1Checkout) {
        email = checkout.email
        address = checkout.address?.lines(in: language)
        shippingOptions = checkout.shippingOptions.map {
            ShippingOptionRow(id: $0.id, name: $0.name, cost: $0.cost.text(in: language.locale), isChosen: $0.id == checkout.shippingMethod)
        }
        review = checkout.quote.map { CheckoutReview($0, language: language) }
        heldUntil = checkout.heldUntil
        holdEnds = checkout.heldUntil.map { language.time($0, timeZone: timeZone) }
        tick()
        step = switch checkout.nextStep {
        case "cart": .cart
        case "address": .address
        case "shipping": .shipping
        default: .review
        }
    }

    // MARK: The hold's countdown

    /// Recomputes ``holdSecondsLeft`` from the clock.
    public func tick() {
        guard let heldUntil else { holdSecondsLeft = nil; return }
        holdSecondsLeft = max(0, Int(heldUntil.timeIntervalSince(now()).rounded(.up)))
    }

    /// `true` once the hold ran out: the order must be reviewed again (``renewHold()``) before
    /// it can be placed.
    public var holdExpired: Bool { holdSecondsLeft == 0 }

    /// The time left as a countdown shows it, "4:59"; nil without a hold.
    public var holdRemaining: String? {
        holdSecondsLeft.map { "\($0 / 60):" + ($0 % 60 < 10 ? "0" : "") + "\($0 % 60)" }
    }

    /// Whether "Place order" is enabled.
    public var canPlaceOrder: Bool { connectivity.isOnline && step == .review && review != nil && !holdExpired }

    /// Ticks every second until the hold runs out or the order is placed (run it in the review
    /// screen's task; cancelling the task stops it).
    public func runCountdown() async {
        tick()
        while heldUntil != nil, !holdExpired, !Task.isCancelled {
            do { try await sleep(.seconds(1)) } catch { return }
            tick()
        }
    }

    // MARK: Text

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        var lines = ["[Checkout] step: \(step)"]
        if let email { lines.append("  email: \(email)") }
        if let address { lines.append("  ship to: \(address.joined(separator: ", "))") }
        for (field, errors) in fieldErrors.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("  \(field.rawValue): \(errors.joined(separator: " "))")
        }
        if step == .shipping || step == .review {
            lines += shippingOptions.map { "  \($0.isChosen ? "(x)" : "( )") \($0.name) \($0.cost)" }
        }
        if let review, step == .review || step == .placing {
            lines += review.charges.snapshot
            if let holdRemaining, let holdEnds { lines.append("  held for \(holdRemaining) (until \(holdEnds))") }
        }
        if let notice { lines.append("  notice: \(notice)") }
        if let order { lines.append("  placed: " + order.snapshot) }
        return lines.joined(separator: "\n")
    }
}
