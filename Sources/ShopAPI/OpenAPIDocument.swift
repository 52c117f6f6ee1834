import Foundation

/// The OpenAPI 3.1 document of the JSON API, served at `GET /api/openapi.json`: built from
/// ``APIRoute/operations`` (one entry per route declaration) and the JSON Schemas of the wire
/// types (``APIRoute/wireTypes``), so it cannot describe a route the server does not have.
///
/// ```swift
/// let document = OpenAPIDocument.make()
/// document["paths"]?["/api/products/{id}"]?["get"]?["operationId"]  // "getProduct"
/// ```
public enum OpenAPIDocument {
    /// The document of every `/api` route.
    public static let current: JSONValue = make()

    /// The document for these operations and wire types.
    /// - Parameters:
    ///   - operations: one per route declaration (default: ``APIRoute/operations``).
    ///   - wireTypes: the types listed under `#/components/schemas`.
    /// - Returns: the document as a JSON value (`openapi: "3.1.0"`).
    public static func make(operations: [APIOperation] = APIRoute.operations,
                            wireTypes: [any JSONSchemaDescribed.Type] = APIRoute.wireTypes) -> JSONValue {
        var paths: [String: JSONValue] = [:]
        for operation in operations {
            let item = paths[openAPIPath(operation.pattern)] ?? [:]
            paths[openAPIPath(operation.pattern)] = item.merging([operation.method.lowercased(): object(operation)])
        }
        let schemas = Dictionary(wireTypes.map { ($0.schemaName, $0.jsonSchema) }, uniquingKeysWith: { first, _ in first })
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Shoppable API",
                "version": "1",
                "description": .string("The shop's JSON API: Fake Store compatible routes under `/api` and the Shoppable "
                    + "API under `/api/v1`. Every failure answers the one error envelope (`Error`). Every successful `GET` "
                    + "carries a strong `ETag`; `If-None-Match` with it answers 304. With `--cors-origin`, answers to an "
                    + "allowed `Origin` carry `Access-Control-Allow-Origin` and `OPTIONS` answers preflights. "
                    + "See docs/API.md."),
            ],
            "tags": [
                ["name": "products", "description": "The catalog, in Fake Store's shapes."],
                ["name": "auth", "description": "Sign-in."],
                ["name": "users", "description": "Accounts, in Fake Store's shapes."],
                ["name": "carts", "description": "Saved carts, in Fake Store's shapes (apart from the live cart)."],
                ["name": "v1 catalog", "description": "Categories and products for a shopping app; money in minor units."],
                ["name": "v1 sessions", "description": "Guest tokens."],
                ["name": "v1 cart", "description": "The shopper's live cart, priced as the cart page prices it."],
                ["name": "v1 favorites", "description": "The shopper's favorite products."],
                ["name": "meta", "description": "About the API itself."],
            ],
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas),
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer",
                               "description": .string("A sign-in token from `POST /api/auth/login`, or (for the "
                                   + "`/api/v1` cart and favorites) a guest token from `POST /api/v1/sessions/guest`.")],
                ],
            ],
        ]
    }

    /// The schema of the document itself (its required top-level members).
    static let schema: JSONValue = [
        "type": "object",
        "required": ["openapi", "info", "paths"],
        "properties": [
            "openapi": ["type": "string", "pattern": "^3\\.1\\.[0-9]+$"],
            "info": ["type": "object", "required": ["title", "version"], "additionalProperties": true],
            "tags": ["type": "array", "items": ["type": "object", "additionalProperties": true]],
            "paths": ["type": "object", "additionalProperties": true],
            "components": ["type": "object", "additionalProperties": true],
        ],
        "additionalProperties": true,
    ]

    /// A declaration's pattern as an OpenAPI path: `{name...}` becomes `{name}`.
    public static func openAPIPath(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: "...}", with: "}")
    }

    private static func object(_ operation: APIOperation) -> JSONValue {
        var fields: [String: JSONValue] = [
            "operationId": .string(operation.operationID),
            "summary": .string(operation.summary),
            "tags": [.string(operation.tag)],
            "responses": .object(Dictionary(conditional(operation).map { (String($0.status), object($0)) },
                                            uniquingKeysWith: { first, _ in first })),
        ]
        if let description = operation.description { fields["description"] = .string(description) }
        if operation.requiresBearer {
            fields["security"] = [["bearer": []]]
        } else if operation.acceptsBearer {
            fields["security"] = [[:], ["bearer": []]]
        }
        if !operation.parameters.isEmpty {
            fields["parameters"] = .array(operation.parameters.map { parameter in
                [
                    "name": .string(parameter.name),
                    "in": .string(parameter.location.rawValue),
                    "required": .bool(parameter.isRequired),
                    "description": .string(parameter.description),
                    "schema": parameter.schema,
                ]
            })
        }
        if let body = operation.requestBody {
            fields["requestBody"] = ["required": true, "content": ["application/json": ["schema": body]]]
        }
        return .object(fields)
    }

    /// The operation's answers, with what the server adds to every `GET` (`APIApp.ConditionalGET`):
    /// a strong `ETag` on its 200, and 304 (no body) when `If-None-Match` names it.
    private static func conditional(_ operation: APIOperation) -> [APIOperation.Response] {
        guard operation.method == "GET" else { return operation.responses }
        var responses = operation.responses.map { response in
            var response = response
            if response.status == 200 { response.headers["ETag"] = "A strong tag of the body, for `If-None-Match`." }
            return response
        }
        responses.append(APIOperation.Response(304, "Not modified: `If-None-Match` names the current `ETag`.", schema: nil,
                                               headers: ["ETag": "The current tag."]))
        return responses
    }

    private static func object(_ response: APIOperation.Response) -> JSONValue {
        var fields: [String: JSONValue] = ["description": .string(response.description)]
        if let schema = response.schema {
            fields["content"] = ["application/json": ["schema": schema]]
        }
        if !response.headers.isEmpty {
            fields["headers"] = .object(response.headers.mapValues { description in
                ["description": .string(description), "required": true, "schema": ["type": "string"]]
            })
        }
        return .object(fields)
    }
}
