import Routing

/// The OpenAPI description of every route in `APIRoute.router`: one ``APIOperation`` per
/// declaration, matched by method and pattern. Adding a route means adding its declaration and
/// its entry here; `OpenAPICoverageTests` fails until both exist.
extension APIRoute {
    /// One entry per route declaration, in the order the document lists them.
    public static let operations: [APIOperation] = fakeStoreOperations + fakeStoreWriteOperations + documentOperations

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
}
