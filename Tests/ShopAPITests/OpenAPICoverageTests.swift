import Foundation
import ShopAPI
import Testing

/// The OpenAPI document and the route declarations cannot drift: every declared route (method +
/// pattern) is in the document, and the document has no operation that no route declares.
@Suite("OpenAPI document")
struct OpenAPICoverageTests {
    static let document = OpenAPIDocument.current

    /// `"GET /api/products/{id}"` for every operation of the document.
    static func documentedOperations() -> Set<String> {
        var operations: Set<String> = []
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in (item.objectValue ?? [:]).keys { operations.insert("\(method.uppercased()) \(path)") }
        }
        return operations
    }

    @Test func everyDeclaredRouteIsInTheDocumentAndNothingElse() {
        let declared = Set(APIRoute.router.declarations.map { "\($0.method) \(OpenAPIDocument.openAPIPath($0.pattern))" })
        let documented = Self.documentedOperations()
        #expect(declared.subtracting(documented).isEmpty, "declared routes missing from the document")
        #expect(documented.subtracting(declared).isEmpty, "documented operations no route declares")
        #expect(APIRoute.operations.count == APIRoute.router.declarations.count, "one operation per declaration")
    }

    @Test func theDocumentIsOpenAPI31JSON() throws {
        let bytes = Data(Self.document.encoded())
        let object = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(object["openapi"] as? String == "3.1.0")
        #expect((object["info"] as? [String: Any])?["title"] as? String == "Shoppable API")
        #expect(try JSONDecoder().decode(JSONValue.self, from: bytes) == Self.document, "encoding round-trips")
    }

    @Test func operationIDsAreUnique() {
        let ids = APIRoute.operations.map(\.operationID)
        #expect(Set(ids).count == ids.count)
    }

    /// Each `{name}` of a pattern is a required path parameter of its operation, and no other.
    @Test func pathParametersMatchThePatterns() {
        for operation in APIRoute.operations {
            let inPattern = Set(operation.pattern.split(separator: "/").filter { $0.hasPrefix("{") }
                .map { String($0.dropFirst().dropLast()).replacingOccurrences(of: "...", with: "") })
            let declared = Set(operation.parameters.filter { $0.location == .path }.map(\.name))
            #expect(inPattern == declared, "\(operation.method) \(operation.pattern)")
        }
    }

    /// Every `$ref` points at a schema under `#/components/schemas`.
    @Test func everyReferenceResolves() {
        let schemas = Self.document["components"]?["schemas"]?.objectValue ?? [:]
        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case let .object(members):
                if let reference = members["$ref"]?.stringValue { references.append(reference) }
                members.values.forEach(collect)
            case let .array(elements): elements.forEach(collect)
            default: break
            }
        }
        collect(Self.document)
        #expect(!references.isEmpty)
        for reference in references {
            #expect(reference.hasPrefix("#/components/schemas/")
                    && schemas[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference)")
        }
    }

    /// Every operation documents its success and the failures every route may give.
    @Test func everyOperationDocumentsSuccessAndServerFailures() {
        for operation in APIRoute.operations {
            let statuses = Set(operation.responses.map(\.status))
            #expect(statuses.contains { (200..<300).contains($0) } && statuses.isSuperset(of: [500, 503]),
                    "\(operation.method) \(operation.pattern)")
        }
    }
}
