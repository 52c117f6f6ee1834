public import Foundation
public import Observation
public import ShopAPI
import ShopClient
import ShopCore

/// A product page: the gallery, the variant chosen by its option values with that variant's
/// price and stock, related products, and "Add to cart" within the quantity the shop allows.
///
/// A variant with an open option (WooCommerce "any": `options[i]` empty, `choices[i]` its
/// allowed values) offers each allowed value in the picker like any other; adding it sends the
/// picked values as `chosenValues`, and each pick becomes its own cart line.
///
/// ```swift
/// let detail = ProductDetailModel(handle: "linen-shirt", shop: app.shop, cart: app.cart, favorites: app.favorites)
/// await detail.load()
/// detail.choose("M", forOption: 1)       // price, stock and the add button follow the variant
/// detail.quantity = 2
/// await detail.addToCart()
/// ```
@MainActor
@Observable
public final class ProductDetailModel {
    /// One option (Color, Size) as the picker shows it.
    public struct Option: Hashable, Sendable {
        /// One value of the option.
        public struct Value: Hashable, Sendable {
            public var name: String
            /// Chosen now.
            public var isSelected: Bool
            /// Some variant with this value and the other chosen values can be bought.
            public var isAvailable: Bool
        }

        public var name: String
        public var values: [Value]
    }

    /// The product's handle.
    public let handle: String
    /// The page's state: the product as the API gives it.
    public private(set) var state: LoadState<V1Product> = .idle
    /// The chosen value of each option (by the product's option order); nil: not chosen yet.
    public private(set) var chosen: [String?] = []
    /// The image shown in the gallery.
    public private(set) var imageIndex = 0
    /// How many to add (kept within ``quantityRange``).
    public var quantity = 1 { didSet { if quantity != clamped(quantity) { quantity = clamped(quantity) } } }
    /// The last refusal of "Add to cart", if any.
    public var errorMessage: String? { cart.errorMessage }
    /// The locale texts are written in.
    public var locale: Locale

    @ObservationIgnored private let shop: ShopOperations
    /// The one cart.
    public let cart: CartModel
    /// The one set of favorites.
    public let favorites: FavoritesModel

    /// A product page.
    /// - Parameters:
    ///   - handle: the product's handle.
    ///   - shop: the shop's operations.
    ///   - cart: the app's cart.
    ///   - favorites: the app's favorites.
    public init(handle: String, shop: ShopOperations, cart: CartModel, favorites: FavoritesModel) {
        self.handle = handle
        self.shop = shop
        self.cart = cart
        self.favorites = favorites
        locale = cart.locale
    }

    // MARK: - Outputs

    /// The product, once loaded.
    public var product: V1Product? { state.value }
    /// The gallery's images: a stored image's rendition that fills a phone's screen (1280 pixels
    /// at most, not the original, which may be a 25 MB photo); a remote image's own URL.
    public var images: [URL] { product?.images.compactMap { URL(string: $0.url(forPixelWidth: 1280)) } ?? [] }
    /// The options and their values, for the picker.
    public var options: [Option] {
        guard let product else { return [] }
        return product.options.enumerated().map { index, name in
            var values: [String] = []
            for variant in product.variants {
                for value in Self.values(of: variant, at: index) where !values.contains(value) { values.append(value) }
            }
            return Option(name: name, values: values.map { value in
                var choice = chosen
                choice[index] = value
                let available = product.variants.contains { variant in
                    !variant.soldOut && Self.matches(variant, choice)
                }
                return Option.Value(name: value, isSelected: chosen[index] == value, isAvailable: available)
            })
        }
    }
    /// The variant of the chosen values, once every option is chosen.
    public var variant: V1Variant? {
        guard let product, chosen.allSatisfy({ $0 != nil }) else { return nil }
        return product.variants.first { Self.matches($0, chosen) }
    }
    /// The chosen variant's price, else the lowest price ("from"), formatted.
    public var price: String? {
        if let variant { return variant.price.text(in: locale) }
        return product?.variants.min { $0.price.minorUnits < $1.price.minorUnits }?.price.text(in: locale)
    }
    /// The chosen variant's "was" price, formatted, when on sale.
    public var compareAtPrice: String? { variant?.compareAtPrice?.text(in: locale) }
    /// How many of the chosen variant can be bought (nil: not limited).
    public var available: Int? { variant?.available }
    /// The chosen variant cannot be bought.
    public var isSoldOut: Bool { variant?.soldOut ?? false }
    /// The quantities the stepper allows: 1 up to the stock and the shop's per-line maximum.
    public var quantityRange: ClosedRange<Int> {
        let limit = min(variant?.available ?? Cart.maximumQuantityPerLine, Cart.maximumQuantityPerLine)
        return 1...max(1, limit)
    }
    /// Related products (the same category), as cards.
    public var related: [ProductCard] { product?.related.map { ProductCard($0, locale: locale) } ?? [] }
    /// Whether "Add to cart" may be tapped: a variant chosen that can be bought, online.
    public var canAddToCart: Bool {
        variant.map { !$0.soldOut } ?? false && quantityRange.contains(quantity) && cart.canAddToCart
    }
    /// Whether the heart is filled.
    public var isFavorite: Bool { product.map { favorites.isFavorite($0.id) } ?? false }

    // MARK: - Inputs

    /// Loads the product; the first variant that can be bought is chosen.
    public func load() async {
        if product == nil { state = .loading }
        let shop = shop
        let handle = handle
        do {
            let product = try await cart.connectivity.send { try await shop.product(handle) }
            state = .loaded(product)
            let first = product.variants.first { !$0.soldOut } ?? product.variants.first
            chosen = product.options.indices.map { index in first.flatMap { Self.values(of: $0, at: index).first } }
            imageIndex = 0
            quantity = clamped(quantity)
        } catch let thrown {
            let error = NetworkError(thrown)
            if product == nil { state = LoadState(error) }
            if case .offline = error {
                cart.connectivity.retryWhenOnline("product:\(handle)") { [weak self] in await self?.load() }
            }
        }
    }

    /// Chooses `value` for the option at `index`. When no variant has that value with the other
    /// choices, the others are set to the first variant that has it (as a shop's picker does).
    public func choose(_ value: String, forOption index: Int) {
        guard let product, chosen.indices.contains(index) else { return }
        var choice = chosen
        choice[index] = value
        if !product.variants.contains(where: { Self.matches($0, choice) }),
           let fallback = product.variants.first(where: { Self.values(of: $0, at: index).contains(value) }) {
            choice = product.options.indices.map { other in
                other == index ? value : Self.values(of: fallback, at: other).first
            }
        }
        chosen = choice
        quantity = clamped(quantity)
    }

    /// Shows the gallery's image at `index` (ignored outside the gallery).
    public func showImage(_ index: Int) {
        if product?.images.indices.contains(index) == true { imageIndex = index }
    }

    /// Adds ``quantity`` of the chosen variant to the cart.
    /// - Returns: `true` when added.
    @discardableResult
    public func addToCart() async -> Bool {
        guard canAddToCart, let product, let variant else { return false }
        return await cart.add(productID: product.id, variantID: variant.id, quantity: quantity,
                              chosenValues: chosenValues(for: variant, of: product))
    }

    /// Fills or empties the heart.
    public func toggleFavorite() async {
        if let product { await favorites.toggle(product.id) }
    }

    // MARK: - Private

    private func clamped(_ quantity: Int) -> Int {
        min(max(quantity, quantityRange.lowerBound), quantityRange.upperBound)
    }

    private static func matches(_ variant: V1Variant, _ choice: [String?]) -> Bool {
        choice.enumerated().allSatisfy { index, value in
            value.map { values(of: variant, at: index).contains($0) } ?? true
        }
    }

    /// The values `variant` sells for the option at `index`: its own value, or — for an open
    /// option — every allowed one.
    private static func values(of variant: V1Variant, at index: Int) -> [String] {
        guard index < variant.options.count else { return [] }
        return openChoices(of: variant, at: index) ?? [variant.options[index]]
    }

    /// The allowed values of `variant`'s option at `index` when that option is open (its own
    /// value empty, `choices` given); nil otherwise.
    private static func openChoices(of variant: V1Variant, at index: Int) -> [String]? {
        guard index < variant.options.count, variant.options[index].isEmpty, let choices = variant.choices,
              index < choices.count, !choices[index].isEmpty else { return nil }
        return choices[index]
    }

    /// What the cart is told was picked for `variant`'s open options; nil when it has none.
    private func chosenValues(for variant: V1Variant, of product: V1Product) -> [V1ChosenValue]? {
        let picked = product.options.indices.compactMap { index -> V1ChosenValue? in
            guard Self.openChoices(of: variant, at: index) != nil, let value = chosen[index] else { return nil }
            return V1ChosenValue(option: product.options[index], value: value)
        }
        return picked.isEmpty ? nil : picked
    }
}
