
/// The OpenAPI description of every route in `APIRoute.router`: one ``APIOperation`` per
/// declaration, matched by method and pattern. Adding a route means adding its declaration and
/// its entry here; `OpenAPICoverageTests` fails until both exist.
extension APIRoute {
    /// One entry per route declaration, in the order the document lists them.
    public static let operations: [APIOperation] = fakeStoreOperations + fakeStoreWriteOperations + userWriteOperations
        + cartOperations + v1Operations + v1AccountOperations + documentOperations

    /// `GET /api/openapi.json`.
    static let documentDeclarations: [Declaration] = [
        Declaration("GET", "/api/openapi.json", [.cacheable],
                    make: { _ in .openAPI },
                    match: { $0 == .openAPI ? RouteParameters() : nil }),
    ]

    static let documentOperations: [APIOperation] = [
        APIOperation("GET", "/api/openapi.json", id: "getOpenAPIDocument", summary: "This document: OpenAPI 3.1",
                     tag: "meta",
                     responses: [.ok("The OpenAPI 3.1 document of every `/api` route.", OpenAPIDocument.schema,
                                      headers: ["Cache-Control": "`public, max-age=300`."])]
                        + APIOperation.Response.always),
    ]

    // MARK: - Fake Store

    /// `limit` and `sort` of the Fake Store lists, as the server reads them (`FakeStoreListQuery`):
    /// anything is accepted, as by fakestoreapi.com.
    static let listParameters: [APIOperation.Parameter] = [
        .query("limit", "At most this many products. Missing, not a whole number, or ≤ 0: no limit (as Fake Store).",
               schema: ["type": "string", "examples": ["5"]]),
        .query("sort", "`desc`: by id, descending; anything else: by id, ascending (as Fake Store).",
               schema: ["type": "string", "examples": ["asc", "desc"]]),
    ]

    static let productList: JSONValue = .arraySchema(of: FakeStoreProduct.schemaReference)

    static let fakeStoreOperations: [APIOperation] = [
        APIOperation("GET", "/api/products", id: "listProducts", summary: "Published products, by id",
                     tag: "products", parameters: listParameters,
                     responses: [.catalogRead("The products.", productList)]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/products/categories", id: "listCategories", summary: "The category names",
                     tag: "products",
                     responses: [.catalogRead("The names of every category.", .arraySchema(of: ["type": "string"]))]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/products/category/{name}", id: "listProductsOfCategory",
                     summary: "The products of the category with exactly this name",
                     description: "An unknown name gives an empty list (as Fake Store).",
                     tag: "products",
                     parameters: [.path("name", "The category's name, exactly (percent-encoded in the path).",
                                        schema: ["type": "string", "minLength": 1])] + listParameters,
                     responses: [.catalogRead("The category's products, by id.", productList)] + APIOperation.Response.always),
        APIOperation("GET", "/api/products/{id}", id: "getProduct", summary: "One product",
                     tag: "products",
                     parameters: [.path("id", "The product's id: a positive whole number.",
                                        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])],
                     responses: [
                        .catalogRead("The product.", FakeStoreProduct.schemaReference),
                        .error(400, "`malformed_id`: the id is not a positive whole number."),
                        .error(404, "`not_found`: there is no product with this id."),
                     ] + APIOperation.Response.always),
        APIOperation("POST", "/api/auth/login", id: "login", summary: "Sign in: an account's email and password → a bearer token",
                     description: "Throttled like the sign-in form: attempts are counted against the email and the client address.",
                     tag: "auth", requestBody: FakeStoreLogin.schemaReference,
                     responses: [
                        .ok("Signed in: the token of a new session (valid for 30 days of use).", FakeStoreToken.schemaReference),
                        .error(400, "`unsupported_media_type` (the body is not sent as `application/json`), `malformed_body` "
                               + "(not JSON), `missing_field` or `invalid_field` (`field` says which)."),
                        .error(401, "`invalid_credentials`: an unknown email or a wrong password."),
                        .error(429, "`too_many_attempts`: too many failed attempts; try again after `Retry-After` seconds.",
                               headers: ["Retry-After": "Seconds to wait before trying again."]),
                     ] + APIOperation.Response.always),
    ]

    static let productID = APIOperation.Parameter.path(
        "id", "The product's id: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let badProductBody = APIOperation.Response.error(
        400, "`malformed_id`, `unsupported_media_type`, `malformed_body`, `missing_field` or `invalid_field` "
            + "(`field` says which; a price with more decimals than the currency has is `invalid_field`).")

    /// The writes (operator token) and the account reads (bearer token).
    static let fakeStoreWriteOperations: [APIOperation] = [
        APIOperation("POST", "/api/products", id: "createProduct", summary: "Add a product (operator)",
                     description: "A new category name creates the category.",
                     tag: "products", requestBody: FakeStoreProductInput.schemaReference, requiresBearer: true,
                     responses: [.created("The new product.", FakeStoreProduct.schemaReference), badProductBody,
                                 .unauthorized, .operatorOnly] + APIOperation.Response.always),
        APIOperation("PUT", "/api/products/{id}", id: "replaceProduct", summary: "Replace a product's Fake Store fields (operator)",
                     description: "Fields left out are emptied; variants, stock, tags and the handle are kept.",
                     tag: "products", parameters: [productID], requestBody: FakeStoreProductInput.schemaReference,
                     requiresBearer: true,
                     responses: [.ok("The product as changed.", FakeStoreProduct.schemaReference), badProductBody,
                                 .unauthorized, .operatorOnly, .error(404, "`not_found`: there is no product with this id.")]
                        + APIOperation.Response.always),
        APIOperation("PATCH", "/api/products/{id}", id: "updateProduct", summary: "Change some of a product's fields (operator)",
                     tag: "products", parameters: [productID], requestBody: FakeStoreProductInput.schemaReference,
                     requiresBearer: true,
                     responses: [.ok("The product as changed.", FakeStoreProduct.schemaReference), badProductBody,
                                 .unauthorized, .operatorOnly, .error(404, "`not_found`: there is no product with this id.")]
                        + APIOperation.Response.always),
        APIOperation("DELETE", "/api/products/{id}", id: "deleteProduct", summary: "Withdraw a product (operator)",
                     description: "Unpublishes it: orders keep their lines, an import can publish it again.",
                     tag: "products", parameters: [productID], requiresBearer: true,
                     responses: [.ok("The product as it was.", FakeStoreProduct.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."),
                                 .unauthorized, .operatorOnly, .error(404, "`not_found`: there is no product with this id.")]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/users", id: "listUsers", summary: "Every account (operator), or the caller's own",
                     tag: "users", parameters: listParameters, requiresBearer: true,
                     responses: [.ok("The accounts, by id.", .arraySchema(of: FakeStoreUser.schemaReference)), .unauthorized]
                        + APIOperation.Response.always),
        APIOperation("GET", "/api/users/{id}", id: "getUser", summary: "One account: the caller's own, or any for an operator",
                     tag: "users",
                     parameters: [.path("id", "The account's id: a positive whole number.",
                                        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])],
                     requiresBearer: true,
                     responses: [.ok("The account.", FakeStoreUser.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), .unauthorized,
                                 .error(404, "`not_found`: no such account, or not the caller's (ids do not leak).")]
                        + APIOperation.Response.always),
    ]

    // MARK: - Users and carts

    static let userID = APIOperation.Parameter.path(
        "id", "The account's id: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let bodyErrors = "`unsupported_media_type` (the body is not sent as `application/json`), `malformed_body` (not JSON), "
        + "`missing_field` or `invalid_field` (`field` says which)"

    static let badUserBody = APIOperation.Response.error(
        400, "`malformed_id`, \(bodyErrors); `invalid_field` also for a value the web's rules refuse (a weak password, "
            + "a malformed email, username, phone or address).")

    static let taken = APIOperation.Response.error(
        409, "`email_taken` or `username_taken`: another account has this email or username.")

    static let userNotFound = APIOperation.Response.error(
        404, "`not_found`: no such account, or another shopper's (ids do not leak).")

    static let throttled = APIOperation.Response.error(
        429, "`too_many_attempts`: too many attempts from this client; try again after `Retry-After` seconds.",
        headers: ["Retry-After": "Seconds to wait before trying again."])

    /// `POST /api/users` (no token) and the writes of an account (its own token, or an operator's).
    static let userWriteOperations: [APIOperation] = [
        APIOperation("POST", "/api/users", id: "createUser", summary: "Register an account",
                     description: "The web's registration rules, throttled per client like the form. The account is a "
                        + "shopper, unverified (a verification email is queued), and can sign in at once.",
                     tag: "users",
                     // Registering needs what PATCH may leave out.
                     requestBody: ["allOf": [FakeStoreUserInput.schemaReference,
                                             ["required": ["email", "password", "name"]]]],
                     responses: [.created("The new account.", FakeStoreUser.schemaReference),
                                 .error(400, "\(bodyErrors); `invalid_field` also for a value the web's rules refuse "
                                        + "(a weak password, a malformed email, username, phone or address)."),
                                 taken, throttled] + APIOperation.Response.always),
        APIOperation("PUT", "/api/users/{id}", id: "replaceUser", summary: "Replace an account's fields (own token or operator)",
                     description: "Needs `email` and `name`; `username`, `phone` and `address` left out are emptied. The "
                        + "password changes only when sent, and then ends the account's other sessions.",
                     tag: "users", parameters: [userID], requestBody: FakeStoreUserInput.schemaReference, requiresBearer: true,
                     responses: [.ok("The account as changed.", FakeStoreUser.schemaReference), badUserBody, .unauthorized,
                                 userNotFound, taken] + APIOperation.Response.always),
        APIOperation("PATCH", "/api/users/{id}", id: "updateUser", summary: "Change some of an account's fields (own token or operator)",
                     tag: "users", parameters: [userID], requestBody: FakeStoreUserInput.schemaReference, requiresBearer: true,
                     responses: [.ok("The account as changed.", FakeStoreUser.schemaReference), badUserBody, .unauthorized,
                                 userNotFound, taken] + APIOperation.Response.always),
        APIOperation("DELETE", "/api/users/{id}", id: "deleteUser", summary: "Delete an account (own token or operator)",
                     description: "Its sessions, live cart, favorites, address book and saved carts go; its orders stay.",
                     tag: "users", parameters: [userID], requiresBearer: true,
                     responses: [.ok("The account as it was.", FakeStoreUser.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), .unauthorized,
                                 userNotFound,
                                 .error(409, "`last_operator`: the shop's only operator account (a shop keeps one).")]
                        + APIOperation.Response.always),
    ]

    /// `limit`, `sort`, `startdate` and `enddate` of the cart lists (`FakeStoreCartQuery`).
    static let cartListParameters: [APIOperation.Parameter] = listParameters + [
        .query("startdate", "Carts dated on or after this ISO 8601 date (`2020-01-01`, or a date and time); "
               + "anything else is 400 `malformed_date`.", schema: ["type": "string", "format": "date"]),
        .query("enddate", "Carts dated before this ISO 8601 date (exclusive); anything else is 400 `malformed_date`.",
               schema: ["type": "string", "format": "date"]),
    ]

    static let cartID = APIOperation.Parameter.path(
        "id", "The cart's id: a positive whole number.",
        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])

    static let cartNotFound = APIOperation.Response.error(
        404, "`not_found`: no such cart, or another shopper's (ids do not leak).")

    static let badCartBody = APIOperation.Response.error(
        400, "`malformed_id`, \(bodyErrors), `malformed_date` (`date` is not ISO 8601); `invalid_field` also for a line "
            + "the cart's rules refuse (a quantity outside 1…99, an unknown or unpublished product, a product twice, "
            + "more than 100 lines; `field` says which, e.g. `products[0].quantity`) or an unknown `userId`.")

    static let otherOwner = APIOperation.Response.error(403, "`forbidden`: a shopper named another account as `userId`.")

    /// Saved carts: a token's own, every cart for an operator.
    static let cartOperations: [APIOperation] = [
        APIOperation("GET", "/api/carts", id: "listCarts", summary: "The caller's carts (every cart for an operator)",
                     tag: "carts", parameters: cartListParameters, requiresBearer: true,
                     responses: [.personal("The carts, by id.", .arraySchema(of: FakeStoreCart.schemaReference)),
                                 .error(400, "`malformed_date`: `startdate` or `enddate` is not ISO 8601 (`field` says which)."),
                                 .unauthorized] + APIOperation.Response.always),
        APIOperation("GET", "/api/carts/user/{userId}", id: "listCartsOfUser", summary: "One account's carts (itself or an operator)",
                     tag: "carts",
                     parameters: [.path("userId", "The account's id: a positive whole number.",
                                        schema: ["type": "integer", "minimum": 1, "maximum": .integer(Int64.max)])]
                        + cartListParameters,
                     requiresBearer: true,
                     responses: [.personal("The account's carts, by id.", .arraySchema(of: FakeStoreCart.schemaReference)),
                                 .error(400, "`malformed_id` (the id is not a positive whole number) or `malformed_date` "
                                        + "(`startdate` or `enddate` is not ISO 8601)."),
                                 .unauthorized, userNotFound] + APIOperation.Response.always),
        APIOperation("GET", "/api/carts/{id}", id: "getCart", summary: "One cart (its owner or an operator)",
                     tag: "carts", parameters: [cartID], requiresBearer: true,
                     responses: [.personal("The cart.", FakeStoreCart.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), .unauthorized,
                                 cartNotFound] + APIOperation.Response.always),
        APIOperation("POST", "/api/carts", id: "createCart", summary: "Save a cart",
                     description: "`userId` left out is the caller; `date` left out is now.",
                     tag: "carts", requestBody: FakeStoreCartInput.schemaReference, requiresBearer: true,
                     responses: [.created("The new cart.", FakeStoreCart.schemaReference), badCartBody, .unauthorized,
                                 otherOwner] + APIOperation.Response.always),
        APIOperation("PUT", "/api/carts/{id}", id: "replaceCart", summary: "Replace a cart (its owner or an operator)",
                     description: "Needs `products`; a `date` left out becomes now.",
                     tag: "carts", parameters: [cartID], requestBody: FakeStoreCartInput.schemaReference, requiresBearer: true,
                     responses: [.ok("The cart as changed.", FakeStoreCart.schemaReference), badCartBody, .unauthorized,
                                 otherOwner, cartNotFound] + APIOperation.Response.always),
        APIOperation("PATCH", "/api/carts/{id}", id: "updateCart", summary: "Replace the fields sent (its owner or an operator)",
                     description: "`products`, when sent, replaces every line (arrays are replaced, not merged).",
                     tag: "carts", parameters: [cartID], requestBody: FakeStoreCartInput.schemaReference, requiresBearer: true,
                     responses: [.ok("The cart as changed.", FakeStoreCart.schemaReference), badCartBody, .unauthorized,
                                 otherOwner, cartNotFound] + APIOperation.Response.always),
        APIOperation("DELETE", "/api/carts/{id}", id: "deleteCart", summary: "Delete a cart (its owner or an operator)",
                     tag: "carts", parameters: [cartID], requiresBearer: true,
                     responses: [.ok("The cart as it was.", FakeStoreCart.schemaReference),
                                 .error(400, "`malformed_id`: the id is not a positive whole number."), .unauthorized,
                                 cartNotFound] + APIOperation.Response.always),
    ]
}
