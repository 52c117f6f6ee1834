import Foundation
public import ShopAPI

extension ShopClient {
    /// The Shoppable API under `/api/v1`: ``ShopClient/v1``.
    public var v1: V1 { V1(client: self) }

    /// The Shoppable API under `/api/v1` (issue #10, point 2): catalog, guest session, cart,
    /// favorites, checkout and orders, one named method per route. Each prints its request from
    /// `APIRoute.router` and decodes the `V1…` wire types of `ShopAPI` (money in integer minor
    /// units). Reached as `client.v1`, beside the Fake Store methods on ``ShopClient`` itself.
    ///
    /// ```swift
    /// let lamps = try await client.v1.products(query: V1ProductQuery(category: "lamps"))
    /// try await client.v1.startGuestSession()           // the cart calls now carry the guest token
    /// _ = try await client.v1.addLine(V1AddLine(product: lamps.products[0].handle, quantity: 2))
    /// let cart = try await client.v1.setVoucher(code: "SAVE15")
    /// ```
    ///
    /// Retries (``RetryPolicy``) cover `GET`, `PUT` and `DELETE`; `POST`s (adding a line,
    /// reviewing) and `PATCH`es are sent once — except ``placeOrder(idempotencyKey:)``, whose
    /// `Idempotency-Key` makes it safe to send again.
    public struct V1: Sendable {
        /// The client the calls go through (its environment, credentials and retries).
        public let client: ShopClient

        // MARK: - Catalog

        /// `GET /api/v1/categories`: every category with products, with counts.
        /// - Returns: the categories.
        /// - Throws: ``NetworkError``.
        public func categories() async throws(NetworkError) -> [V1Category] {
            try await client.send(.v1(.categories))
        }

        /// `GET /api/v1/products`: one page of the listing.
        /// - Parameter query: category, search, sort, filters, page size and the previous page's
        ///   `nextCursor` as `cursor`.
        /// - Returns: the page; its `nextCursor` is nil on the last page.
        /// - Throws: ``NetworkError``; 400 `invalid_parameter` (a bad `sort`, `limit` or `cursor`),
        ///   404 for an unknown category.
        public func products(query: V1ProductQuery = V1ProductQuery()) async throws(NetworkError) -> V1ProductPage {
            try await client.send(.v1(.products(query)))
        }

        /// Every page of the listing, one request per page, following `nextCursor`:
        /// `for try await page in client.v1.productPages(query: …) { … }`.
        /// - Parameter query: as ``products(query:)``; its `cursor` is where the first page starts.
        /// - Returns: the pages, lazily; iteration throws ``NetworkError``.
        public func productPages(query: V1ProductQuery = V1ProductQuery()) -> ProductPages {
            ProductPages(client: client, query: query)
        }

        /// `GET /api/v1/products/{handle}`: one product with variants, stock, images and related products.
        /// - Parameter handle: the product's handle (from a summary).
        /// - Returns: the product.
        /// - Throws: ``NetworkError``; 404 `not_found` for a product that is not sold.
        public func product(handle: String) async throws(NetworkError) -> V1Product {
            try await client.send(.v1(.product(handle: handle)))
        }

        /// `GET /api/v1/featured`: the home page's row — featured products, or the caller's
        /// recommendations (the "See recommendations / See all" toggle), by the home page's rules.
        /// - Parameter recommendations: `true` for the caller's recommendations (their cart and
        ///   favorites count when the client has credentials).
        /// - Returns: up to 12 products.
        /// - Throws: ``NetworkError``.
        public func featured(recommendations: Bool = false) async throws(NetworkError) -> V1Featured {
            try await client.send(.v1(.featured(recommendations: recommendations)))
        }

        // MARK: - Guest session and cart

        /// `POST /api/v1/sessions/guest`: a guest token, kept as the client's ``ShopClient/credentials``
        /// so the cart, favorites and checkout calls that follow carry it. Signing in later with
        /// ``ShopClient/login(username:password:)`` merges the guest's cart into the account's.
        /// - Returns: the token and when it ends.
        /// - Throws: ``NetworkError``; 429 when the address asked for too many.
        @discardableResult
        public func startGuestSession() async throws(NetworkError) -> V1GuestToken {
            let guest: V1GuestToken = try await client.send(.v1(.guestSession))
            client.setCredentials(Credentials(accessToken: guest.token))
            return guest
        }

        /// `GET /api/v1/cart`: the cart priced in one pass (lines, selection, voucher, totals).
        /// - Returns: the cart.
        /// - Throws: ``NetworkError``; 401 without a token.
        public func cart() async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.cart))
        }

        /// `POST /api/v1/cart/lines`: adds a product (by handle or id, the variant when it has options).
        /// - Parameter line: what to add; `quantity` defaults to 1.
        /// - Returns: the cart as it now is.
        /// - Throws: ``NetworkError``; 400 for a bad quantity, 422 `sold_out`, `variant_not_chosen`, ….
        public func addLine(_ line: V1AddLine) async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.addLine), body: line)
        }

        /// `PATCH /api/v1/cart/lines/{variantId}`: a new quantity (0 removes the line), the tick, or both.
        /// - Parameters:
        ///   - variantID: the line's variant.
        ///   - quantity: the new quantity, or nil to keep it.
        ///   - selected: whether the line goes to checkout, or nil to keep it.
        ///   - chosenValues: which line of an open variant (the line's `chosenValues`); nil for others.
        /// - Returns: the cart as it now is.
        /// - Throws: ``NetworkError``; 404 `line_not_found`.
        public func updateLine(variantID: Int64, quantity: Int? = nil, selected: Bool? = nil,
                               chosenValues: [V1ChosenValue]? = nil) async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.updateLine(FakeStoreID(variantID))),
                                  body: V1LineChange(quantity: quantity.map { Decimal($0) }, selected: selected,
                                                     chosenValues: chosenValues))
        }

        /// `DELETE /api/v1/cart/lines/{variantId}`: removes a line.
        /// - Parameters:
        ///   - variantID: the line's variant.
        ///   - chosenValues: which line of an open variant (the line's `chosenValues`); nil for others.
        /// - Returns: the cart as it now is.
        /// - Throws: ``NetworkError``; 404 `line_not_found`.
        public func removeLine(variantID: Int64, chosenValues: [V1ChosenValue]? = nil) async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.removeLine(FakeStoreID(variantID), chosen: V1ChosenValue.text(chosenValues))))
        }

        /// `PUT /api/v1/cart/voucher`: enters a voucher code. A code that does not qualify yet is
        /// kept with `voucher.status == "rejected"` and its `problem`, and applies once the cart does.
        /// - Parameter code: the code (case and surrounding spaces do not matter).
        /// - Returns: the cart as it now is.
        /// - Throws: ``NetworkError``; 400 `invalid_voucher_code` for a malformed code.
        public func setVoucher(code: String) async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.setVoucher), body: V1Voucher(code: code))
        }

        /// `DELETE /api/v1/cart/voucher`: removes the voucher code.
        /// - Returns: the cart as it now is.
        /// - Throws: ``NetworkError``.
        public func removeVoucher() async throws(NetworkError) -> V1Cart {
            try await client.send(.v1(.removeVoucher))
        }

        // MARK: - Favorites

        /// `GET /api/v1/favorites`: the favorite products, most recently added first.
        /// - Returns: the products.
        /// - Throws: ``NetworkError``.
        public func favorites() async throws(NetworkError) -> [V1ProductSummary] {
            try await client.send(.v1(.favorites), as: V1Favorites.self).products
        }

        /// `PUT /api/v1/favorites/{productId}`: adds a favorite.
        /// - Parameter productID: the product's id.
        /// - Returns: the favorites as they now are.
        /// - Throws: ``NetworkError``; 404 for a product that is not sold.
        @discardableResult
        public func addFavorite(productID: Int64) async throws(NetworkError) -> [V1ProductSummary] {
            try await client.send(.v1(.addFavorite(FakeStoreID(productID))), as: V1Favorites.self).products
        }

        /// `DELETE /api/v1/favorites/{productId}`: removes a favorite (one that is not there is fine).
        /// - Parameter productID: the product's id.
        /// - Returns: the favorites as they now are.
        /// - Throws: ``NetworkError``.
        @discardableResult
        public func removeFavorite(productID: Int64) async throws(NetworkError) -> [V1ProductSummary] {
            try await client.send(.v1(.removeFavorite(FakeStoreID(productID))), as: V1Favorites.self).products
        }

        // MARK: - Checkout and orders

        /// `GET /api/v1/checkout`: the checkout in progress — choices, shipping options, `quote`, `nextStep`.
        /// - Returns: the checkout.
        /// - Throws: ``NetworkError``.
        public func checkout() async throws(NetworkError) -> V1Checkout {
            try await client.send(.v1(.checkout))
        }

        /// `PUT /api/v1/checkout/address`: ships to a saved address (`savedAddressId`, accounts) or
        /// a typed one (`address`); a guest also gives `email`.
        /// - Parameter address: the choice.
        /// - Returns: the checkout as it now is.
        /// - Throws: ``NetworkError``; 400 `invalid_address` (the field at fault in `message`'s
        ///   envelope), 404 `address_not_found` for a saved address that is not the account's.
        public func setAddress(_ address: V1CheckoutAddress) async throws(NetworkError) -> V1Checkout {
            try await client.send(.v1(.setCheckoutAddress), body: address)
        }

        /// `PUT /api/v1/checkout/shipping`: chooses a shipping method from `shippingOptions`.
        /// - Parameter method: the method's id.
        /// - Returns: the checkout as it now is.
        /// - Throws: ``NetworkError``.
        public func setShipping(method: String) async throws(NetworkError) -> V1Checkout {
            try await client.send(.v1(.setCheckoutShipping), body: V1ShippingChoice(method: method))
        }

        /// `POST /api/v1/checkout/review`: holds the stock until `heldUntil` and fixes the charges shown.
        /// - Returns: the checkout with its `quote`: what ``placeOrder(idempotencyKey:)`` will charge.
        /// - Throws: ``NetworkError``; 409 `checkout_incomplete`, `insufficient_stock`, `hold_trimmed`.
        public func review() async throws(NetworkError) -> V1Checkout {
            try await client.send(.v1(.reviewCheckout))
        }

        /// A new `Idempotency-Key` for one order attempt: a random UUID.
        public static func newIdempotencyKey() -> String { UUID().uuidString }

        /// `POST /api/v1/orders`: places the reviewed order, sending `Idempotency-Key: <key>`.
        ///
        /// The key names this order attempt: the shop makes at most one order per key and answers
        /// a key it has seen with that order. So this `POST` — unlike every other — is retried
        /// (``RetryPolicy``: offline, 502–504) with the same key. After a thrown error (offline
        /// once the retries are spent, a timeout, 409 `confirmation_needed` — the order as it now
        /// is was reviewed again) try again with the **same** key; use a new key only for a new order:
        ///
        /// ```swift
        /// let key = ShopClient.V1.newIdempotencyKey()
        /// let order = try await client.v1.placeOrder(idempotencyKey: key)
        /// ```
        /// - Parameter idempotencyKey: 1–200 visible ASCII characters; default a new UUID.
        /// - Returns: the order; a guest's carries `guestToken`, which reads it later
        ///   (``order(number:guestToken:)``).
        /// - Throws: ``NetworkError``; 409 `confirmation_needed` when a price, the voucher,
        ///   shipping or the cart changed since the review, 409 `checkout_incomplete`.
        public func placeOrder(idempotencyKey: String = newIdempotencyKey()) async throws(NetworkError) -> V1Order {
            let (data, _) = try await client.exchange(.v1(.placeOrder), body: nil, headers: ["Idempotency-Key": idempotencyKey])
            return try ShopClient.decode(V1Order.self, from: data)
        }

        /// `GET /api/v1/orders`: the signed-in account's orders, newest first.
        /// - Returns: the orders.
        /// - Throws: ``NetworkError``; 403 `sign_in_required` with a guest token.
        public func orders() async throws(NetworkError) -> [V1Order] {
            try await client.send(.v1(.orders), as: V1Orders.self).orders
        }

        /// `GET /api/v1/orders/{number}`: one order of the caller, or a guest's with its `guestToken`.
        /// - Parameters:
        ///   - number: the order's number.
        ///   - guestToken: the placed order's `guestToken` (no bearer token needed then).
        /// - Returns: the order.
        /// - Throws: ``NetworkError``; 404 for an order that is not the caller's.
        public func order(number: String, guestToken: String? = nil) async throws(NetworkError) -> V1Order {
            try await client.send(.v1(.order(number: number, token: guestToken)))
        }
    }

    /// The pages of a `/api/v1/products` listing (``V1/productPages(query:)``): each iteration
    /// step asks for the next page with the previous page's `nextCursor`, and ends after the
    /// page without one.
    public struct ProductPages: AsyncSequence, Sendable {
        public typealias Element = V1ProductPage
        public typealias Failure = NetworkError

        let client: ShopClient
        let query: V1ProductQuery

        public func makeAsyncIterator() -> Iterator { Iterator(client: client, query: query) }

        /// Asks for one page per ``next()``.
        public struct Iterator: AsyncIteratorProtocol {
            public typealias Element = V1ProductPage
            public typealias Failure = NetworkError

            let client: ShopClient
            /// The query of the next page; nil after the last.
            var query: V1ProductQuery?

            /// The next page, or nil after the last.
            /// - Throws: ``NetworkError``.
            public mutating func next() async throws(NetworkError) -> V1ProductPage? {
                try await next(isolation: nil)
            }

            /// The next page, or nil after the last (the caller's isolation kept).
            /// - Throws: ``NetworkError``.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(NetworkError) -> V1ProductPage? {
                guard let current = query else { return nil }
                let page = try await client.v1.products(query: current)
                query = page.nextCursor.map { cursor in
                    var following = current
                    following.cursor = cursor
                    return following
                }
                return page
            }
        }
    }
}
