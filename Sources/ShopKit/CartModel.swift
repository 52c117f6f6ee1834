public import Foundation
public import Observation
public import ShopAPI
import ShopClient

/// The one cart every screen observes: the cart tab, its badge, and "Add to cart" on lists and
/// product pages.
///
/// The numbers are the server's (`GET /api/v1/cart` prices the cart in one pass, as the cart
/// page does); the model only writes them for ``locale``. Changes are **optimistic**: a new
/// quantity, a removed line or a ticked box shows at once, the server's answer then replaces it,
/// and a refusal puts back what the server last said and sets ``errorMessage``. Requests go out
/// one at a time, in the order of the taps, and their answers are applied in that order, so
/// quick taps cannot leave the cart in a state the server does not have.
///
/// ```swift
/// let cart = CartModel(shop: .live(client))
/// await cart.load()
/// await cart.add(product: "arc-lamp")           // starts a guest session if needed
/// await cart.increase(cart.lines[0])            // shows 2 at once, then the server's cart
/// await cart.applyVoucher("SAVE15")             // cart.voucher?.message says why not, if not
/// ```
@MainActor
@Observable
public final class CartModel {
    /// Which line of the cart: its variant and, for a variant with open options (WooCommerce
    /// "any"), the values chosen — two picks of one variant are two lines.
    public struct LineKey: Hashable, Sendable {
        public var variantID: Int64
        /// The line's `chosenValues` as the server gave them; nil for other variants.
        public var chosenValues: [V1ChosenValue]?

        public init(variantID: Int64, chosenValues: [V1ChosenValue]? = nil) {
            self.variantID = variantID
            self.chosenValues = chosenValues?.isEmpty == true ? nil : chosenValues
        }
    }

    /// A cart line as a row shows it.
    public struct Line: Identifiable, Hashable, Sendable {
        /// The variant plus, for an open variant, the values chosen.
        public var id: LineKey { LineKey(variantID: variantID, chosenValues: chosenValues) }
        public var variantID: Int64
        /// The values chosen for the variant's open options; nil for other variants.
        public var chosenValues: [V1ChosenValue]?
        public var productID: Int64
        /// The product's handle (the row links to its page).
        public var handle: String
        public var title: String
        /// The option values ("Red / M"); empty without options.
        public var variantTitle: String
        public var imageURL: URL?
        /// The quantity shown: the one just chosen while the server has not answered yet.
        public var quantity: Int
        /// Ticked for checkout.
        public var selected: Bool
        /// The server's unit price, formatted.
        public var unitPrice: String
        /// The server's line total after its share of the voucher, formatted (for the quantity
        /// the server last confirmed: see ``isUpdating``).
        public var total: String
        /// The line's share of the voucher discount, formatted; nil when none.
        public var discount: String?
        /// The most the line may hold now (stock net of holds, and the per-line maximum).
        public var quantityLimit: Int
        /// Why the line cannot be bought as it stands (the server's message), if so.
        public var problem: String?
        /// A change of this line is on its way: the amounts are the server's previous ones.
        public var isUpdating: Bool

        /// Whether "+" may be tapped.
        public var canIncrease: Bool { quantity < quantityLimit }
        /// Whether "−" may be tapped (1 → 0 is "remove", a separate action).
        public var canDecrease: Bool { quantity > 1 }
    }

    /// The voucher entered, and what became of it.
    public struct Voucher: Hashable, Sendable {
        public var code: String
        /// `true` when it gives a discount.
        public var isApplied: Bool
        /// The campaign it applied, when applied.
        public var campaign: String?
        /// Why it gives no discount (the server's message, in the app's language), when rejected.
        public var message: String?
    }

    /// The cart screen's content.
    public struct Display: Hashable, Sendable {
        public var lines: [Line]
        /// The selected lines' amounts before the discount, formatted.
        public var subtotal: String
        /// The discount, formatted; nil when there is none.
        public var discount: String?
        /// What the shopper pays for the selected lines, formatted.
        public var total: String
        /// Items that can be bought (the badge).
        public var itemCount: Int
        /// Items on the selected lines.
        public var selectedItemCount: Int
        public var voucher: Voucher?
        /// Lines whose product is no longer sold (left out of the totals).
        public var unavailableCount: Int
        /// A change is on its way: the totals are the server's previous ones.
        public var isUpdating: Bool

        /// Whether "Checkout" may be tapped: something selected, no selected line with a
        /// problem, and no change waiting for the server.
        public var canCheckout: Bool {
            selectedItemCount > 0 && !isUpdating && !lines.contains { $0.selected && $0.problem != nil }
        }
    }

    /// The cart screen's state; ``LoadState/empty`` for a cart with nothing in it (or no session yet).
    public private(set) var state: LoadState<Display> = .idle
    /// The server's last answer, as sent.
    public private(set) var cart: V1Cart?
    /// The last refused change (the server's message, or "cannot be reached"); it stays until
    /// ``dismissError()`` (the view's alert), even when later changes go through.
    public private(set) var errorMessage: String?
    /// The stable code of the refusal in ``errorMessage`` when the server gave one
    /// (`variant_not_chosen`, `quantity_exceeds_stock`, …), for a view that reacts to it.
    public private(set) var errorCode: String?
    /// The message of the last voucher entry refused outright (a code in the wrong format, or no
    /// connection); a well-formed code the campaign rules reject is in ``Display/voucher``.
    public private(set) var voucherError: String?
    /// Products suggested under the cart ("You may also like"): the shopper's recommendations
    /// (`GET /api/v1/featured?view=recommendations`: in stock, not in the cart), after
    /// ``loadSuggestions()``.
    public private(set) var suggestions: [ProductCard] = []
    /// A product whose quick add needs its options chosen first (the server answered
    /// `variant_not_chosen`): the app pushes `Destination.product(handle:)` for it and calls
    /// ``dismissOptionsNeeded()``. Set by ``quickAdd(_:)`` from any screen.
    public private(set) var optionsNeeded: ProductCard?
    /// How many "Add to cart" requests are on their way (buttons show progress while > 0).
    public private(set) var addsInFlight = 0
    /// The locale amounts are written in; setting it rewrites the display.
    public var locale: Locale { didSet { redisplay() } }

    /// The changes shown but not yet answered, oldest first.
    private var pending: [(id: Int, change: Change)] = []
    @ObservationIgnored private var nextChangeID = 0
    /// The last request queued: each waits for the one before.
    @ObservationIgnored private var tail: Task<Void, Never>?
    @ObservationIgnored private let shop: ShopOperations
    @ObservationIgnored public let connectivity: Connectivity

    private enum Change {
        case quantity(LineKey, Int)
        case remove(LineKey)
        /// Ticking is per variant on the server: every line of the variant follows.
        case selected(variantID: Int64, Bool)
    }

    /// A cart model.
    /// - Parameters:
    ///   - shop: the shop's operations.
    ///   - connectivity: the app's connectivity (``AppModel`` passes its own).
    ///   - locale: the locale amounts are written in.
    public init(shop: ShopOperations, connectivity: Connectivity = .manual(), locale: Locale = .current) {
        self.shop = shop
        self.connectivity = connectivity
        self.locale = locale
    }

    // MARK: - Outputs

    /// The lines shown (empty unless loaded).
    public var lines: [Line] { state.value?.lines ?? [] }

    /// The tab badge: items that can be bought, counting the changes not answered yet (the
    /// latest change of each line).
    public var badge: Int {
        guard let cart else { return 0 }
        var shown: [LineKey: Int] = [:]
        for (_, change) in pending {
            switch change {
            case let .quantity(key, quantity): shown[key] = quantity
            case let .remove(key): shown[key] = 0
            case .selected: break
            }
        }
        return cart.itemCount + cart.lines.reduce(0) { sum, line in
            sum + (shown[LineKey(variantID: line.variantId, chosenValues: line.chosenValues)].map { $0 - line.quantity } ?? 0)
        }
    }

    /// Whether the cart may be changed now (quantity, remove, selection, voucher): online.
    public var canChange: Bool { connectivity.isOnline }
    /// Whether "Add to cart" may be tapped now: online.
    public var canAddToCart: Bool { connectivity.isOnline }

    // MARK: - Inputs

    /// Loads the cart (`GET /api/v1/cart`). Without a session there is no cart yet: ``LoadState/empty``,
    /// without a request. Offline, the load is retried when the network returns.
    public func load() async {
        guard shop.credentials() != nil else {
            cart = nil
            pending.removeAll()
            state = .empty
            return
        }
        if cart == nil { state = .loading }
        let shop = shop
        await enqueue { [self] in
            do {
                cart = try await connectivity.send { try await shop.cart() }
            } catch let thrown {
                let error = NetworkError(thrown)
                if case .offline = error { connectivity.retryWhenOnline("cart") { [weak self] in await self?.load() } }
                if cart == nil { state = LoadState(error) } else { fail(error) }
            }
            redisplay()
        }
    }

    /// Loads ``suggestions`` (the cart screen calls it when it appears). A failure leaves the
    /// suggestions as they were: they are a nicety, not the cart.
    public func loadSuggestions() async {
        let shop = shop
        guard let row = try? await connectivity.send({ try await shop.featured(true) }) else { return }
        suggestions = row.products.map { ProductCard($0, locale: locale) }
    }

    /// Adds a product by handle ("quick add" from a list, or the product page's button).
    /// - Parameters:
    ///   - handle: the product's handle.
    ///   - variantID: the chosen variant (needed when the product has options).
    ///   - quantity: how many (≥ 1).
    ///   - chosenValues: a value for each open option of the variant (its `choices`).
    /// - Returns: `true` when the server added it; else ``errorMessage`` says why.
    @discardableResult
    public func add(product handle: String, variantID: Int64? = nil, quantity: Int = 1,
                    chosenValues: [V1ChosenValue]? = nil) async -> Bool {
        await add(V1AddLine(product: handle, variantId: variantID, quantity: Decimal(quantity), chosenValues: chosenValues))
    }

    /// "Quick add" from a card (home, lists, campaigns): one of the product. A product with
    /// options cannot be added without its page: then ``optionsNeeded`` is set instead of
    /// ``errorMessage``.
    /// - Parameter card: the product's card.
    /// - Returns: `true` when added.
    @discardableResult
    public func quickAdd(_ card: ProductCard) async -> Bool {
        guard !card.soldOut else { return false }
        if await add(product: card.handle) { return true }
        if errorCode == "variant_not_chosen" {
            dismissError()
            optionsNeeded = card
        }
        return false
    }

    /// Clears ``optionsNeeded`` (the product page was pushed).
    public func dismissOptionsNeeded() { optionsNeeded = nil }

    /// Adds a product by id.
    /// - Parameters:
    ///   - productID: the product's id.
    ///   - variantID: the chosen variant (needed when the product has options).
    ///   - quantity: how many (≥ 1).
    ///   - chosenValues: a value for each open option of the variant (its `choices`).
    /// - Returns: `true` when the server added it.
    @discardableResult
    public func add(productID: Int64, variantID: Int64? = nil, quantity: Int = 1,
                    chosenValues: [V1ChosenValue]? = nil) async -> Bool {
        await add(V1AddLine(productId: productID, variantId: variantID, quantity: Decimal(quantity),
                            chosenValues: chosenValues))
    }

    /// Sets a line's quantity: shown at once, then the server's cart; put back on refusal.
    /// 0 or less removes the line.
    /// - Parameters:
    ///   - quantity: the new quantity.
    ///   - line: the line (``Line/id``).
    public func setQuantity(_ quantity: Int, forLine line: LineKey) async {
        guard quantity > 0 else { return await remove(line) }
        let shop = shop
        await change(.quantity(line, quantity)) { try await shop.updateLine(line, quantity, nil) }
    }

    /// One more of `line` (the quantity shown now, plus one).
    public func increase(_ line: Line) async {
        let shown = lines.first { $0.id == line.id }?.quantity ?? line.quantity
        await setQuantity(shown + 1, forLine: line.id)
    }

    /// One fewer of `line`, not below 1.
    public func decrease(_ line: Line) async {
        let shown = lines.first { $0.id == line.id }?.quantity ?? line.quantity
        guard shown > 1 else { return }
        await setQuantity(shown - 1, forLine: line.id)
    }

    /// Removes a line: gone at once, back on refusal.
    /// - Parameter line: the line (``Line/id``).
    public func remove(_ line: LineKey) async {
        let shop = shop
        await change(.remove(line)) { try await shop.removeLine(line) }
    }

    /// Ticks or unticks a line for checkout: shown at once, back on refusal. The server ticks
    /// every line of the line's variant (whatever was chosen), and so does the display.
    /// - Parameters:
    ///   - selected: ticked or not.
    ///   - line: the line (``Line/id``).
    public func setSelected(_ selected: Bool, forLine line: LineKey) async {
        let shop = shop
        await change(.selected(variantID: line.variantID, selected)) { try await shop.updateLine(line, nil, selected) }
    }

    /// Enters a voucher code. A code the campaign rules reject still comes back in the cart
    /// (``Display/voucher`` with the server's message); a code refused outright sets ``voucherError``.
    /// - Parameter code: the code as typed (the server normalizes it).
    /// - Returns: `true` when the voucher now gives a discount.
    @discardableResult
    public func applyVoucher(_ code: String) async -> Bool {
        guard canChange else { return false }
        let shop = shop
        return await enqueue { [self] in
            do {
                cart = try await connectivity.send { try await shop.setVoucher(code) }
                voucherError = nil
            } catch let thrown {
                let error = NetworkError(thrown)
                voucherError = error.errorDescription
            }
            redisplay()
            return cart?.voucher?.status == "applied"
        }
    }

    /// Removes the voucher.
    public func removeVoucher() async {
        guard canChange else { return }
        let shop = shop
        await enqueue { [self] in
            do {
                cart = try await connectivity.send { try await shop.removeVoucher() }
                voucherError = nil
            } catch let thrown {
                let error = NetworkError(thrown)
                fail(error)
            }
            redisplay()
        }
    }

    /// Clears ``errorMessage`` and ``errorCode`` (the view's alert was dismissed).
    public func dismissError() {
        errorMessage = nil
        errorCode = nil
    }

    private func fail(_ error: NetworkError) {
        errorMessage = error.errorDescription
        errorCode = error.code
    }

    /// Forgets the cart (signed out): the next ``load()`` starts over.
    public func reset() {
        cart = nil
        pending.removeAll()
        errorMessage = nil
        errorCode = nil
        voucherError = nil
        state = .idle
    }

    // MARK: - Sequencing

    private func add(_ line: V1AddLine) async -> Bool {
        guard canAddToCart else { return false }
        addsInFlight += 1
        defer { addsInFlight -= 1 }
        let shop = shop
        return await enqueue { [self] in
            do {
                if shop.credentials() == nil {
                    _ = try await connectivity.send { try await shop.startGuestSession() }
                }
                cart = try await connectivity.send { try await shop.addLine(line) }
                redisplay()
                return true
            } catch let thrown {
                let error = NetworkError(thrown)
                fail(error)
                return false
            }
        }
    }

    /// Shows `change` at once, sends `request` after the requests before it, then shows the
    /// server's answer — or, on failure, the cart without this change.
    private func change(_ change: Change, _ request: @escaping @Sendable () async throws -> V1Cart) async {
        guard canChange, cart != nil else { return }
        nextChangeID += 1
        let id = nextChangeID
        pending.append((id, change))
        redisplay()
        await enqueue { [self] in
            do {
                cart = try await connectivity.send(request)
            } catch let thrown {
                let error = NetworkError(thrown)
                fail(error)
            }
            pending.removeAll { $0.id == id }
            redisplay()
        }
    }

    /// Runs `work` after every request queued before it.
    private func enqueue<Value: Sendable>(_ work: @escaping @MainActor () async -> Value) async -> Value {
        let previous = tail
        let task = Task { @MainActor in
            await previous?.value
            return await work()
        }
        tail = Task { _ = await task.value }
        return await task.value
    }

    // MARK: - Display

    /// The display: the server's cart with the pending changes laid over it.
    private func redisplay() {
        guard let cart else { return }
        var lines: [Line] = cart.lines.map { line in
            Line(variantID: line.variantId, chosenValues: line.chosenValues, productID: line.productId, handle: line.handle, title: line.title,
                 variantTitle: line.variantTitle, imageURL: line.image.flatMap(URL.init(string:)), quantity: line.quantity,
                 selected: line.selected, unitPrice: line.unitPrice.text(in: locale), total: line.total.text(in: locale),
                 discount: line.discount.minorUnits == 0 ? nil : line.discount.text(in: locale),
                 quantityLimit: line.quantityLimit, problem: line.problem?.message, isUpdating: false)
        }
        for (_, change) in pending {
            switch change {
            case let .quantity(key, quantity):
                if let index = lines.firstIndex(where: { $0.id == key }) {
                    lines[index].quantity = quantity
                    lines[index].isUpdating = true
                }
            case let .remove(key):
                lines.removeAll { $0.id == key }
            case let .selected(variantID, selected):
                for index in lines.indices where lines[index].variantID == variantID {
                    lines[index].selected = selected
                    lines[index].isUpdating = true
                }
            }
        }
        let voucher = cart.voucher.map { voucher in
            Voucher(code: voucher.code, isApplied: voucher.status == "applied", campaign: voucher.campaign,
                    message: voucher.problem?.message)
        }
        let display = Display(
            lines: lines, subtotal: cart.subtotal.text(in: locale),
            discount: cart.discount.minorUnits == 0 ? nil : cart.discount.text(in: locale),
            total: cart.total.text(in: locale), itemCount: badge,
            selectedItemCount: lines.filter(\.selected).reduce(0) { $0 + $1.quantity },
            voucher: voucher, unavailableCount: cart.unavailable.count, isUpdating: !pending.isEmpty
        )
        state = lines.isEmpty && cart.unavailable.isEmpty ? .empty : .loaded(display)
    }
}
