import Foundation
import ShopAPI

/// Checks a JSON value against a schema of the OpenAPI document: the subset of JSON Schema the
/// document uses (`$ref`, `type`, `properties`, `required`, `additionalProperties`, `items`,
/// `minimum`, `maximum`, `minLength`, `pattern`, `enum`). Stricter than JSON Schema on purpose: an
/// object member the schema does not list is an error unless `additionalProperties` is `true`, so
/// a field the server adds must be documented.
struct JSONSchemaCheck {
    /// `#/components/schemas`.
    var components: [String: JSONValue]

    init(document: JSONValue) {
        components = document["components"]?["schemas"]?.objectValue ?? [:]
    }

    /// Every way `value` differs from `schema`, each with its JSON path; empty when it fits.
    func errors(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
        if let reference = schema["$ref"]?.stringValue {
            let name = String(reference.dropFirst("#/components/schemas/".count))
            guard let target = components[name] else { return ["\(path): unresolved \(reference)"] }
            return errors(value, target, at: path)
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) { return ["\(path): \(value) not in enum"] }
        if let types = schema["type"].map({ $0.arrayValue?.compactMap(\.stringValue) ?? [$0.stringValue ?? ""] }),
           !types.contains(where: { Self.has(value, type: $0) }) {
            return ["\(path): \(value) is not \(types.joined(separator: " or "))"]
        }
        var found: [String] = []
        switch value {
        case let .object(members):
            let properties = schema["properties"]?.objectValue ?? [:]
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                found.append("\(path).\(name): required, missing")
            }
            for (name, member) in members {
                if let property = properties[name] {
                    found += errors(member, property, at: "\(path).\(name)")
                } else if schema["additionalProperties"] != true {
                    found.append("\(path).\(name): not in the schema")
                }
            }
        case let .array(elements):
            if let items = schema["items"] {
                for (index, element) in elements.enumerated() { found += errors(element, items, at: "\(path)[\(index)]") }
            }
        case let .string(text):
            if case let .integer(minimum)? = schema["minLength"], text.count < minimum { found.append("\(path): shorter than \(minimum)") }
            if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): \"\(text)\" does not match \(pattern)")
            }
        case .integer, .number:
            let number = Self.number(value)
            if let minimum = schema["minimum"].map(Self.number), number < minimum { found.append("\(path): below \(minimum)") }
            if let maximum = schema["maximum"].map(Self.number), number > maximum { found.append("\(path): above \(maximum)") }
        case .null, .bool: break
        }
        return found
    }

    static func has(_ value: JSONValue, type: String) -> Bool {
        switch (value, type) {
        case (.object, "object"), (.array, "array"), (.string, "string"), (.bool, "boolean"), (.null, "null"),
             (.integer, "integer"), (.integer, "number"), (.number, "number"): true
        case let (.number(number), "integer"): number.rounded() == number
        default: false
        }
    }

    static func number(_ value: JSONValue) -> Double {
        switch value {
        case let .integer(integer): Double(integer)
        case let .number(number): number
        default: .nan
        }
    }
}
