/// The OpenAPI description of the `/api/v1` routes (``APIRoute/v1Declarations``).
extension APIRoute {
    static let v1Unauthorized = APIOperation.Response.error(
        401, "`unauthorized`: no `Authorization: Bearer` header, or one that names no live session (a guest token "
            + "from `POST /api/v1/sessions/guest` or a sign-in token from `POST /api/auth/login`).",
        headers: ["WWW-Authenticate": "`Bearer`."])

    static let variantID = APIOperation.Parameter.path(
        "variantId", "The variant of the cart line: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let favoriteProductID = APIOperation.Parameter.path(
        "productId", "The product's id: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let theCart = "The cart as it now is."
    /// Cart writes answer the whole quoted cart unless the client asks for less (RFC 7240).
    static let preferMinimal = APIOperation.Parameter.optionalHeader(
        "Prefer", "`return=minimal`: answer 204 without the cart, for a client that does not need it back (the "
            + "answer then costs a fraction: no quote, no JSON).", schema: ["type": "string"])
    static let cartChangedMinimal = APIOperation.Response(
        204, "The change is made; the cart is not sent (`Prefer: return=minimal`).", schema: nil,
        headers: ["Preference-Applied": "`return=minimal`."])

    /// The query of `GET /api/v1/products` (`V1ProductQuery`): the category page's filters.
    static let v1ProductParameters: [APIOperation.Parameter] = [
        .query("category", "A category's `handle`; an unknown one is 404.", schema: ["type": "string"]),
        .query("q", "Search words, folded by the first `Accept-Language` that is `tr`, `es` or `en`.",
               schema: ["type": "string"]),
        .query("sort", "The order; default `relevance` with `q`, else `featured`.",
               schema: ["type": "string", "enum": ["relevance", "featured", "price-asc", "price-desc", "newest", "rating", "name"]]),
        .query("cursor", "The `nextCursor` of the previous page, unchanged. It is opaque (the pattern is today's "
               + "format, which may change): one the API did not give is 400 `invalid_parameter`.",
               schema: ["type": "string", "pattern": .string(cursorPattern)]),
        .query("limit", "Page size, 1–100 (default 24).", schema: ["type": "integer", "minimum": 1, "maximum": 100]),
        .query("min", "Lowest price in major units (`9.99`); one that is not a price, or is below zero, is ignored.", schema: ["type": "string"]),
        .query("max", "Highest price in major units; one that is not a price, or is below zero, is ignored.", schema: ["type": "string"]),
        .query("rating", "Minimum stars, `1`–`5`; anything else is ignored.", schema: ["type": "string", "examples": ["4"]]),
        .query("instock", "`1`: only products that can be bought now; anything else: all.", schema: ["type": "string"]),
        .query("vendor", "Only this vendor.", schema: ["type": "string"]),
        .query("tag", "Only products with this tag.", schema: ["type": "string"]),
        .query("price", "Only products in this price band: a `key` of `facets.priceBands` (`0-25`, `25-50`, …, `250-` "
               + "in major units; × 100 for currencies without minor units); anything else is ignored.",
               schema: ["type": "string", "examples": ["25-50"]]),
        .query("facets", "`1`: add `facets` (categories, vendors, price bands, in stock, with counts) to the answer; "
               + "anything else: left out.", schema: ["type": "string", "examples": ["1"]]),
    ]

    /// The cursors `GET /api/v1/products` gives (`V1Handlers.Cursor`): base64url without padding
    /// of `o:` and an offset of 1–7 digits. Three digits are four characters; the character
    /// classes follow the bits of the ASCII digits `0x30`…`0x39`.
    static let cursorPattern: String = {
        let pair = "(?:[MN][DTjz]|O[DT])"  // the first 12 bits of a digit triple
        let triple = pair + "[AEIMQUYcgk][w-z0-5]"
        let tail = "(?:[MN][AQgw]|O[AQ]|" + pair + "[AEIMQUYcgk])"  // one or two digits
        return "^bzo[w-z0-5](?:(?:\(triple))?\(tail)?|\(triple)\(triple))$"
    }()

    static let checkoutConflicts = "`checkout_incomplete` (`field`: the step missing — `cart`, `email`, `address`, "
        + "`shipping`), `insufficient_stock` (`available`: what each short line can still have) or `hold_trimmed` (the "
        + "merchant lowered the stock under the hold; `available`: what is still held)."

    static let quantityCodes = "`quantity_negative`, `quantity_not_whole`, `quantity_not_a_number`, `quantity_not_positive`"

    static let v1Operations: [APIOperation] = [
        APIOperation("GET", "/api/v1/categories", id: "listV1Categories", summary: "Every category, with product counts",
                     tag: "v1 catalog",
                     responses: [.catalogRead("The categories.", .arraySchema(of: V1Category.schemaReference))]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/products", id: "listV1Products", summary: "One page of products: the category page's listing",
                     description: "Every sort ends with the product id, so pages never repeat or skip a product while the "
                        + "catalog stays the same.",
                     tag: "v1 catalog", parameters: v1ProductParameters, acceptsBearer: true,
                     responses: [.catalogRead("The page and the cursor of the next.", V1ProductPage.schemaReference),
                                 .error(400, "`invalid_parameter`: a `sort`, `limit` or `cursor` the API cannot use "
                                        + "(`field` says which)."),
                                 v1Unauthorized,
                                 .error(404, "`not_found`: there is no category with this handle.")]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/products/{handle}", id: "getV1Product",
                     summary: "One product: variants with stock, images, related products",
                     description: "Sent with a token, the caller's own checkout hold counts as theirs to buy, and the answer is "
                        + "`Cache-Control: private, no-cache`.",
                     tag: "v1 catalog",
                     parameters: [.path("handle", "The product's handle.", schema: ["type": "string", "minLength": 1])],
                     acceptsBearer: true,
                     responses: [.ok("The product.", V1Product.schemaReference,
                                     headers: ["Cache-Control": "`public, no-cache`; `private, no-cache` with a token."]),
                                 v1Unauthorized,
                                 .error(404, "`not_found`: no product is sold with this handle.")]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/featured", id: "getV1Featured",
                     summary: "The home page's featured products, or the caller's recommendations",
                     description: "The storefront home's row and its \"See recommendations / See all\" toggle. Featured: "
                        + "best rated first, what can be bought before what is sold out. With `view=recommendations`: best "
                        + "rated in stock and not in the caller's cart, products from their favorites' categories first "
                        + "(without a token, a visitor with an empty cart and no favorites); the answer is then "
                        + "`Cache-Control: private, no-cache`.",
                     tag: "v1 catalog",
                     parameters: [.query("view", "`recommendations` for the caller's recommendations; anything else: featured.",
                                         schema: ["type": "string"])],
                     acceptsBearer: true,
                     responses: [.ok("Up to 12 products.", V1Featured.schemaReference,
                                     headers: ["Cache-Control": "`public, no-cache`; `private, no-cache` for recommendations."]),
                                 v1Unauthorized]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/sessions/guest", id: "createGuestSession", summary: "A guest token",
                     description: "A guest session like the web's (30 days of use): its cart and favorites merge into the "
                        + "account's when `POST /api/auth/login` is sent with it.",
                     tag: "v1 sessions",
                     responses: [APIOperation.Response(201, "The guest token.", schema: V1GuestToken.schemaReference),
                                 .error(429, "`too_many_attempts`: this address asked for too many guest tokens this hour "
                                        + "(30); try again after `Retry-After` seconds.",
                                        headers: ["Retry-After": "Seconds to wait before trying again."])]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/cart", id: "getV1Cart", summary: "The caller's cart, priced",
                     description: "Lines whose product is no longer sold are listed in `unavailable`; a `GET` changes nothing.",
                     tag: "v1 cart", requiresBearer: true,
                     responses: [.personal("The cart.", V1Cart.schemaReference), v1Unauthorized] + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/cart/lines", id: "addV1CartLine", summary: "Add a product to the cart",
                     description: "As the storefront's add-to-cart: a product already in the cart gets the quantity added.",
                     tag: "v1 cart", parameters: [preferMinimal], requestBody: V1AddLine.schemaReference, requiresBearer: true,
                     responses: [.ok(theCart, V1Cart.schemaReference), cartChangedMinimal,
                                 .error(400, "\(bodyErrors) — `missing_field` also without `product` or `productId` —, or "
                                        + "\(quantityCodes)."),
                                 v1Unauthorized,
                                 .error(422, "`sold_out`, `quantity_exceeds_stock`, `quantity_exceeds_maximum` (the stock or "
                                        + "the line limit refuses the quantity), `variant_not_found` (not sold) or "
                                        + "`variant_not_chosen` (the product has options and no `variantId` was sent).")]
                        + APIOperation.Response.always),
        APIOperation("PATCH", "/api/v1/cart/lines/{variantId}", id: "updateV1CartLine",
                     summary: "Change a line's quantity (0 removes it) or whether it is selected",
                     tag: "v1 cart", parameters: [preferMinimal, variantID], requestBody: V1LineChange.schemaReference, requiresBearer: true,
                     responses: [.ok(theCart, V1Cart.schemaReference), cartChangedMinimal,
                                 .error(400, "`malformed_id`, \(bodyErrors) — `missing_field` also without `quantity` and "
                                        + "`selected` —, or \(quantityCodes)."),
                                 v1Unauthorized,
                                 .error(404, "`line_not_found`: the cart has no line for this variant."),
                                 .error(422, "`sold_out`, `quantity_exceeds_stock` or `quantity_exceeds_maximum`.")]
                        + APIOperation.Response.always),
        APIOperation("DELETE", "/api/v1/cart/lines/{variantId}", id: "removeV1CartLine", summary: "Remove a line",
                     tag: "v1 cart",
                     parameters: [preferMinimal, variantID,
                                  .query("chosen", "Which line of an open variant: its chosen values as `Size=M` (options "
                                         + "joined by a line feed). Left out for other lines.", schema: ["type": "string"])],
                     requiresBearer: true,
                     responses: [.ok(theCart, V1Cart.schemaReference), cartChangedMinimal,
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), v1Unauthorized,
                                 .error(404, "`line_not_found`: the cart has no line for this variant.")]
                        + APIOperation.Response.always),
        APIOperation("PUT", "/api/v1/cart/voucher", id: "setV1Voucher", summary: "Enter a voucher code",
                     description: "A code that does not apply stays entered (`voucher.status` is `rejected`, `voucher.problem` "
                        + "says why) and applies once the cart qualifies, as on the cart page.",
                     tag: "v1 cart", parameters: [preferMinimal], requestBody: V1Voucher.schemaReference, requiresBearer: true,
                     responses: [.ok(theCart, V1Cart.schemaReference), cartChangedMinimal,
                                 .error(400, "\(bodyErrors), or `invalid_voucher_code` (characters other than letters, "
                                        + "digits, `-`, `_`)."),
                                 v1Unauthorized] + APIOperation.Response.always),
        APIOperation("DELETE", "/api/v1/cart/voucher", id: "removeV1Voucher", summary: "Remove the voucher code",
                     tag: "v1 cart", parameters: [preferMinimal], requiresBearer: true,
                     responses: [.ok(theCart, V1Cart.schemaReference), cartChangedMinimal, v1Unauthorized] + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/favorites", id: "listV1Favorites", summary: "The caller's favorites, most recent first",
                     tag: "v1 favorites", requiresBearer: true,
                     responses: [.personal("The favorites.", V1Favorites.schemaReference), v1Unauthorized]
                        + APIOperation.Response.always),
        APIOperation("PUT", "/api/v1/favorites/{productId}", id: "addV1Favorite", summary: "Add a favorite",
                     tag: "v1 favorites", parameters: [favoriteProductID], requiresBearer: true,
                     responses: [.ok("The favorites as they now are.", V1Favorites.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), v1Unauthorized,
                                 .error(404, "`not_found`: no product is sold with this id.")]
                        + APIOperation.Response.always),
        APIOperation("DELETE", "/api/v1/favorites/{productId}", id: "removeV1Favorite",
                     summary: "Remove a favorite (one that is not there is fine)",
                     tag: "v1 favorites", parameters: [favoriteProductID], requiresBearer: true,
                     responses: [.ok("The favorites as they now are.", V1Favorites.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), v1Unauthorized]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/checkout", id: "getV1Checkout", summary: "The checkout in progress, its options and quote",
                     description: "What is chosen (email, address, shipping method), the shipping methods for the address with "
                        + "their costs, and — once the cart has selected lines, an address and a method — the order it would "
                        + "place now (`CheckoutQuote`). `nextStep` says what the client asks for next.",
                     tag: "v1 checkout", requiresBearer: true,
                     responses: [.personal("The checkout.", V1Checkout.schemaReference), v1Unauthorized]
                        + APIOperation.Response.always),
        APIOperation("PUT", "/api/v1/checkout/address", id: "setV1CheckoutAddress", summary: "Choose where the order goes",
                     description: "`savedAddressId` (an account's saved address) or `address` (checked by the storefront's "
                        + "address rules), not both (400 `invalid_field`); a guest also sends `email`. Any change asks for "
                        + "a new review.",
                     tag: "v1 checkout", requestBody: V1CheckoutAddress.schemaReference, requiresBearer: true,
                     responses: [.ok("The checkout.", V1Checkout.schemaReference),
                                 APIOperation.Response(400, "\(bodyErrors), or `invalid_address`: `problems` lists every field "
                                    + "at fault (`address.postalCode`, `email`, …) with a code, `error.field` the first.",
                                    schema: V1CheckoutError.schemaReference),
                                 v1Unauthorized,
                                 .error(404, "`address_not_found`: the account has no saved address with this id.")]
                        + APIOperation.Response.always),
        APIOperation("PUT", "/api/v1/checkout/shipping", id: "setV1CheckoutShipping", summary: "Choose the shipping method",
                     tag: "v1 checkout", requestBody: V1ShippingChoice.schemaReference, requiresBearer: true,
                     responses: [.ok("The checkout.", V1Checkout.schemaReference),
                                 .error(400, "\(bodyErrors), or `invalid_shipping_method`: not one of `shippingOptions`."),
                                 v1Unauthorized,
                                 .error(409, "`checkout_incomplete`: no address yet (`field`: `address`).")]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/checkout/review", id: "reviewV1Checkout", summary: "Review: hold the stock, fix the charges",
                     description: "Holds the quote's stock for the shopper until `heldUntil` and records what the order "
                        + "charges; `POST /api/v1/orders` places it only while it still charges exactly that.",
                     tag: "v1 checkout", requiresBearer: true,
                     responses: [.ok("The checkout with its quote and `heldUntil`.", V1Checkout.schemaReference),
                                 v1Unauthorized,
                                 APIOperation.Response(409, checkoutConflicts, schema: V1CheckoutError.schemaReference)]
                        + APIOperation.Response.always),
        APIOperation("POST", "/api/v1/orders", id: "placeV1Order", summary: "Place the reviewed order",
                     description: "Every price and the voucher are decided again in the order's transaction. The "
                        + "`Idempotency-Key` is the store's idempotency key for this shopper: the same key again gives the "
                        + "same order (200 instead of 201) and never a second one.",
                     tag: "v1 checkout",
                     parameters: [.header("Idempotency-Key", "A new random value for each order (1–200 visible ASCII "
                                          + "characters); resend the same one when retrying.",
                                          schema: ["type": "string", "pattern": "^[!-~]{1,200}$"])],
                     requiresBearer: true,
                     responses: [.created("The order (with `guestToken` for a guest).", V1Order.schemaReference),
                                 .ok("The order this key placed before.", V1Order.schemaReference,
                                     headers: ["Location": "The absolute URL of the order."]),
                                 .error(400, "`missing_idempotency_key` or `invalid_idempotency_key`."),
                                 v1Unauthorized,
                                 APIOperation.Response(409, checkoutConflicts + " `confirmation_needed`: the order would "
                                    + "charge something else than reviewed (a price, the voucher, shipping or the cart "
                                    + "changed); `checkout` is the order as it is now, reviewed again — send the order again "
                                    + "to place it.", schema: V1CheckoutError.schemaReference)]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/orders", id: "listV1Orders", summary: "The signed-in account's orders, newest first",
                     tag: "v1 orders", requiresBearer: true,
                     responses: [.personal("The orders.", V1Orders.schemaReference), v1Unauthorized,
                                 .error(403, "`sign_in_required`: a guest token has no order list (read an order with "
                                        + "its guest token).")]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/v1/orders/{number}", id: "getV1Order", summary: "One order",
                     description: "To the account that placed it, or with `token` (the `guestToken` given to a guest at "
                        + "placing); to anyone else it does not exist.",
                     tag: "v1 orders",
                     parameters: [.path("number", "The order number.", schema: ["type": "string", "minLength": 1]),
                                  .query("token", "A guest order's token.", schema: ["type": "string"])],
                     acceptsBearer: true,
                     responses: [.personal("The order.", V1Order.schemaReference), v1Unauthorized,
                                 .error(404, "`not_found`: no order with this number is the caller's.")]
                        + APIOperation.Response.always),
    ]
}
