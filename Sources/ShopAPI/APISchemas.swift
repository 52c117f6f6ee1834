/// A wire type that describes its JSON as a JSON Schema (draft 2020-12, the dialect of
/// OpenAPI 3.1). The OpenAPI document lists every such type under `#/components/schemas`.
public protocol JSONSchemaDescribed {
    /// Its name under `#/components/schemas`.
    static var schemaName: String { get }
    /// The schema of its JSON: every field the server sends is listed, with its type.
    static var jsonSchema: JSONValue { get }
}

extension JSONSchemaDescribed {
    /// `{"$ref": "#/components/schemas/<schemaName>"}`.
    public static var schemaReference: JSONValue { ["$ref": .string("#/components/schemas/\(schemaName)")] }
}

/// Schema building blocks.
extension JSONValue {
    /// `{"type": "object", "required": …, "properties": …}`: every property listed is required
    /// unless named in `optional`.
    static func objectSchema(_ properties: [String: JSONValue], optional: Set<String> = [], description: String? = nil) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": "object",
            "properties": .object(properties),
            "required": .array(properties.keys.filter { !optional.contains($0) }.sorted().map { .string($0) }),
        ]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    /// `{"type": "string"}` with a description.
    static func stringSchema(_ description: String) -> JSONValue { ["type": "string", "description": .string(description)] }

    /// `{"type": "array", "items": items}`.
    static func arraySchema(of items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
}

extension FakeStoreProduct: JSONSchemaDescribed {
    public static let schemaName = "Product"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1, "description": "The product's id."],
        "title": ["type": "string"],
        "price": ["type": "number", "minimum": 0,
                  "description": "The first variant's price in major units of `currency`, exact to the minor unit."],
        "description": .stringSchema("Plain text."),
        "category": .stringSchema("The category's name (empty when the product has none)."),
        "image": .stringSchema("Absolute URL of the main image (empty when there is none)."),
        "rating": .objectSchema([
            "rate": ["type": "number", "minimum": 0, "maximum": 5, "description": "Average rating, 0–5."],
            "count": ["type": "integer", "minimum": 0, "description": "How many ratings."],
        ]),
        "handle": .stringSchema("Shoppable: the product's URL key."),
        "currency": ["type": "string", "pattern": "^[A-Z]{3}$", "description": "Shoppable: ISO 4217 code of `price`."],
    ], description: "A product in Fake Store's shape; `handle` and `currency` are Shoppable's additions.")
}

extension FakeStoreProductInput: JSONSchemaDescribed {
    public static let schemaName = "ProductInput"
    public static let jsonSchema: JSONValue = .objectSchema([
        "title": ["type": "string", "minLength": 1],
        "price": ["type": "number", "minimum": 0,
                  "description": "Major units of the shop currency; no more decimals than the currency has."],
        "description": .stringSchema("Plain text."),
        "category": .stringSchema("A category name; a new one creates the category."),
        "image": .stringSchema("The main image's absolute URL (empty removes it)."),
    ], optional: ["title", "price", "description", "category", "image"],
       description: "Fake Store's product fields. `POST` and `PUT` need `title` and `price`; `PATCH` changes the fields sent.")
}

extension FakeStoreUser: JSONSchemaDescribed {
    public static let schemaName = "User"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "email": ["type": "string"],
        "username": .stringSchema("The account's username, or its email when it has none."),
        "name": .objectSchema(["firstname": ["type": "string"], "lastname": ["type": "string"]]),
        "address": .objectSchema([
            "city": ["type": "string"], "street": ["type": "string"], "number": ["type": "integer"],
            "zipcode": ["type": "string"],
            "geolocation": .objectSchema(["lat": ["type": "string"], "long": ["type": "string"]]),
        ]),
        "phone": ["type": "string"],
    ], description: "An account in Fake Store's user shape; the password is never part of an answer.")
}

extension FakeStoreUserInput: JSONSchemaDescribed {
    public static let schemaName = "UserInput"
    public static let jsonSchema: JSONValue = .objectSchema([
        "email": ["type": "string", "maxLength": 254, "pattern": "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
                  "description": "An email address; another account's is 409 `email_taken`."],
        "username": ["type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{2,29}$",
                     "description": "3–30 ASCII letters, digits, `_`, `.`, `-`; unique without case (409 `username_taken`)."],
        "password": ["type": "string", "minLength": 8, "maxLength": 128,
                     "description": .string("8–128 characters with a letter and a digit, not containing the name, no "
                        + "`123`. Never answered; stored only as its argon2id hash.")],
        "name": .objectSchema(["firstname": ["type": "string"], "lastname": ["type": "string"]],
                              optional: ["firstname", "lastname"],
                              description: "Joined with a space into the account's name (at most 100 characters)."),
        "address": .objectSchema([
            "city": ["type": "string", "maxLength": 100], "street": ["type": "string", "maxLength": 100],
            "number": ["type": "integer", "minimum": 0, "maximum": 999_999],
            "zipcode": ["type": "string", "maxLength": 20],
            "geolocation": .objectSchema([
                "lat": .stringSchema("Decimal degrees as text, within ±90 (or empty)."),
                "long": .stringSchema("Decimal degrees as text, within ±180 (or empty)."),
            ]),
        ], optional: ["city", "street", "number", "zipcode", "geolocation"]),
        "phone": ["type": "string", "pattern": "^[0-9 +().-]{0,32}$"],
    ], optional: ["email", "username", "password", "name", "address", "phone"],
       description: "Fake Store's user fields. `POST` needs `email`, `password` and `name`; `PUT` needs `email` and "
        + "`name` and empties `username`, `phone` and `address` when left out; `PATCH` changes the fields sent. The "
        + "password changes only when sent.")
}

extension FakeStoreCart: JSONSchemaDescribed {
    public static let schemaName = "Cart"
    public static let jsonSchema: JSONValue = .objectSchema([
        "id": ["type": "integer", "minimum": 1],
        "userId": ["type": "integer", "minimum": 1, "description": "The account it belongs to."],
        "date": ["type": "string", "format": "date-time",
                 "description": "ISO 8601 in UTC with milliseconds, as Fake Store writes it: `2020-03-02T00:00:00.000Z`."],
        "products": .arraySchema(of: cartLine),
    ], description: "A saved cart: a dated list of products of one account, apart from the storefront's live cart.")

    static let cartLine: JSONValue = .objectSchema([
        "productId": ["type": "integer", "minimum": 1],
        "quantity": ["type": "integer", "minimum": 1, "maximum": 99],
    ])
}

extension FakeStoreCartInput: JSONSchemaDescribed {
    public static let schemaName = "CartInput"
    public static let jsonSchema: JSONValue = .objectSchema([
        "userId": ["type": "integer", "minimum": 1,
                   "description": "The owner; left out, the caller. A shopper may name only themselves (403 `forbidden`)."],
        "date": .stringSchema("ISO 8601: `2020-02-03` (midnight UTC) or a date and time with `Z` or an offset; "
                              + "left out on `POST`, now. Anything else is 400 `malformed_date`."),
        "products": ["type": "array", "maxItems": 100, "items": FakeStoreCart.cartLine,
                     "description": "Each product once, published; replaces every line when sent."],
    ], optional: ["userId", "date", "products"],
       description: "`POST` and `PATCH` take the fields sent; `PUT` needs `products` and replaces everything.")
}

extension FakeStoreLogin: JSONSchemaDescribed {
    public static let schemaName = "Login"
    public static let jsonSchema: JSONValue = .objectSchema([
        "username": .stringSchema("The account's username or its email."),
        "password": ["type": "string"],
    ])
}

extension FakeStoreToken: JSONSchemaDescribed {
    public static let schemaName = "Token"
    public static let jsonSchema: JSONValue = .objectSchema([
        "token": .stringSchema("A bearer token: send `Authorization: Bearer <token>`."),
    ])
}

extension APIErrorEnvelope: JSONSchemaDescribed {
    public static let schemaName = "Error"
    public static let jsonSchema: JSONValue = .objectSchema([
        "error": .objectSchema([
            "code": .stringSchema("Stable and machine-readable: `not_found`, `malformed_id`, … (docs/API.md)."),
            "message": .stringSchema("For a person, in the request's language."),
            "field": .stringSchema("The request field at fault, when there is one."),
        ], optional: ["field"]),
    ], description: "The one error shape of every answer that is not a success.")
}

extension APIRoute {
    /// Every wire type the OpenAPI document refers to, listed under `#/components/schemas`.
    public static var wireTypes: [any JSONSchemaDescribed.Type] {
        [FakeStoreProduct.self, FakeStoreProductInput.self, FakeStoreUser.self, FakeStoreUserInput.self, FakeStoreCart.self,
         FakeStoreCartInput.self, FakeStoreLogin.self, FakeStoreToken.self, APIErrorEnvelope.self]
            + v1WireTypes + v1CheckoutWireTypes + v1AccountWireTypes
    }
}
