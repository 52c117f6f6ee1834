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
                "description": .string("The shop's JSON API: Fake Store compatible routes under `/api`. Every failure "
                    + "answers the one error envelope (`Error`). See docs/API.md."),
            ],
            "tags": [
                ["name": "products", "description": "The catalog, in Fake Store's shapes."],
                ["name": "auth", "description": "Sign-in."],
                ["name": "users", "description": "Accounts, in Fake Store's shapes."],
                ["name": "meta", "description": "About the API itself."],
            ],
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas),
                "securitySchemes": [
                    "bearer": ["type": "http", "scheme": "bearer",
                               "description": "A token from `POST /api/auth/login`."],
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
            "responses": .object(Dictionary(operation.responses.map { (String($0.status), object($0)) },
                                            uniquingKeysWith: { first, _ in first })),
        ]
        if let description = operation.description { fields["description"] = .string(description) }
        if operation.requiresBearer { fields["security"] = [["bearer": []]] }
        if !operation.parameters.isEmpty {
            fields["parameters"] = .array(operation.parameters.map { parameter in
                [
                    "name": .string(parameter.name),
                    "in": .string(parameter.location.rawValue),
                    "required": .bool(parameter.location == .path),
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
