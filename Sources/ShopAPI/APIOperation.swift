/// What the OpenAPI document says about one route declaration (`APIRoute.router`): summary,
/// parameters, request body and every answer. `APIRoute.operations` holds one per declaration,
/// matched by `method` and `pattern`; a test fails when the two lists differ.
public struct APIOperation: Sendable {
    /// The declaration's method (`GET`, `POST`, …).
    public var method: String
    /// The declaration's path pattern, e.g. `/api/products/{id}`.
    public var pattern: String
    /// Unique, stable: `operationId` in the document (and a name for generated clients).
    public var operationID: String
    /// One line.
    public var summary: String
    /// More, when there is more to say (Markdown).
    public var description: String?
    /// The group the operation is listed under.
    public var tag: String
    /// Path, query and header parameters.
    public var parameters: [Parameter]
    /// The schema of the JSON body, when the route reads one.
    public var requestBody: JSONValue?
    /// Every answer the route gives, by status.
    public var responses: [Response]
    /// The route needs `Authorization: Bearer <token>` (a token from `POST /api/auth/login`, or a
    /// guest token from `POST /api/v1/sessions/guest` for the `/api/v1` cart and favorites).
    public var requiresBearer: Bool
    /// The route reads a bearer token when one is sent, and answers without one too.
    public var acceptsBearer: Bool

    /// Declares what one route does.
    public init(_ method: String, _ pattern: String, id operationID: String, summary: String, description: String? = nil,
                tag: String, parameters: [Parameter] = [], requestBody: JSONValue? = nil, requiresBearer: Bool = false,
                acceptsBearer: Bool = false, responses: [Response]) {
        self.method = method
        self.pattern = pattern
        self.operationID = operationID
        self.summary = summary
        self.description = description
        self.tag = tag
        self.parameters = parameters
        self.requestBody = requestBody
        self.responses = responses
        self.requiresBearer = requiresBearer
        self.acceptsBearer = acceptsBearer
    }

    /// A path or query parameter.
    public struct Parameter: Sendable {
        public enum Location: String, Sendable {
            case path, query, header
        }

        public var name: String
        public var location: Location
        public var description: String
        public var schema: JSONValue
        /// Path parameters and required headers.
        public var isRequired: Bool = false

        /// A required request header.
        public static func header(_ name: String, _ description: String, schema: JSONValue) -> Parameter {
            Parameter(name: name, location: .header, description: description, schema: schema, isRequired: true)
        }

        /// An optional request header.
        public static func optionalHeader(_ name: String, _ description: String, schema: JSONValue) -> Parameter {
            Parameter(name: name, location: .header, description: description, schema: schema)
        }

        /// A path parameter (always required).
        public static func path(_ name: String, _ description: String, schema: JSONValue) -> Parameter {
            Parameter(name: name, location: .path, description: description, schema: schema, isRequired: true)
        }

        /// An optional query parameter.
        public static func query(_ name: String, _ description: String, schema: JSONValue) -> Parameter {
            Parameter(name: name, location: .query, description: description, schema: schema)
        }
    }

    /// One answer: a status, what it means, its JSON body's schema and the headers it carries.
    public struct Response: Sendable {
        public var status: Int
        public var description: String
        /// The body's schema (always `application/json`), or nil for no body.
        public var schema: JSONValue?
        /// Header name → description; each is always sent with this status.
        public var headers: [String: String]

        public init(_ status: Int, _ description: String, schema: JSONValue?, headers: [String: String] = [:]) {
            self.status = status
            self.description = description
            self.schema = schema
            self.headers = headers
        }

        /// A success whose body is `schema`.
        public static func ok(_ description: String, _ schema: JSONValue, headers: [String: String] = [:]) -> Response {
            Response(200, description, schema: schema, headers: headers)
        }

        /// A catalog read: a success that clients and proxies may keep for a minute.
        public static func catalogRead(_ description: String, _ schema: JSONValue) -> Response {
            .ok(description, schema, headers: ["Cache-Control": "`public, no-cache`: kept by any cache, revalidated with the `ETag` (stock follows holds)."])
        }

        /// A success of a `GET` whose answer is the caller's own (`Cache-Control: no-store`).
        public static func personal(_ description: String, _ schema: JSONValue) -> Response {
            .ok(description, schema, headers: ["Cache-Control": "`no-store`: the answer is the caller's own."])
        }

        /// A failure answered with the error envelope; `description` names the codes and when.
        public static func error(_ status: Int, _ description: String, headers: [String: String] = [:]) -> Response {
            Response(status, description, schema: APIErrorEnvelope.schemaReference, headers: headers)
        }

        /// A success that made something: its body is `schema`, `Location` says where it lives.
        public static func created(_ description: String, _ schema: JSONValue) -> Response {
            Response(201, description, schema: schema, headers: ["Location": "The absolute URL of what was made."])
        }

        /// 401 for a route that needs a bearer token.
        public static let unauthorized = Response.error(
            401, "`unauthorized`: the `Authorization: Bearer` header is missing or names no signed-in session.",
            headers: ["WWW-Authenticate": "`Bearer`."])

        /// 403 for a route that needs an operator's token.
        public static let operatorOnly = Response.error(403, "`forbidden`: this needs an operator account.")

        /// The failures every route may give (`docs/API.md`, *Errors*).
        public static let always: [Response] = [
            .error(500, "`internal`: a failure on our side (details only in the server log)."),
            .error(503, "`busy`: the database stayed busy; try again after `Retry-After` seconds.",
                   headers: ["Retry-After": "Seconds to wait before trying again."]),
        ]
    }
}
