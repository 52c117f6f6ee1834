import ShopCore

/// Typed access to the fields of a JSON object, with errors naming file, line and field.
struct JSONObject {
    let fields: [String: JSONNode]
    let line: Int
    let file: String

    init(_ node: JSONNode, file: String, what: JSONPart) throws(ImportError) {
        guard let fields = node.object else {
            throw ImportError(file: file, line: node.line, problem: .notAnObject(what, found: node.kind))
        }
        self.fields = fields
        self.line = node.line
        self.file = file
    }

    func error(_ key: String, _ problem: ImportProblem) -> ImportError {
        ImportError(file: file, line: fields[key]?.line ?? line, column: key, problem: problem)
    }

    /// Throws when a field named in `limits` holds a string or number (or an array of them) longer
    /// than its `TextLimit`, naming the line of the value and the field.
    func checkLengths(_ limits: KeyValuePairs<String, TextLimit>) throws(ImportError) {
        for (key, limit) in limits {
            guard let node = node(key) else { continue }
            for item in node.array ?? [node] {
                switch item.value {
                case let .string(text), let .number(text):
                    if let problem = limit.violation(by: text) {
                        throw ImportError(file: file, line: item.line, column: key, problem: problem)
                    }
                default:
                    continue
                }
            }
        }
    }

    /// The node, or nil when absent or null.
    func node(_ key: String) -> JSONNode? {
        guard let node = fields[key] else { return nil }
        if case .null = node.value { return nil }
        return node
    }

    /// A string, or nil when absent or null; numbers and booleans are accepted as their text.
    func string(_ key: String) throws(ImportError) -> String? {
        guard let node = node(key) else { return nil }
        switch node.value {
        case let .string(text): return text
        case let .number(text): return text
        case let .bool(flag): return flag ? "true" : "false"
        default: throw error(key, .expected(.string, found: node.kind))
        }
    }

    /// A non-empty trimmed string.
    func requiredString(_ key: String) throws(ImportError) -> String {
        guard let text = try string(key)?.trimmingWhitespace, !text.isEmpty else {
            throw error(key, .required)
        }
        return text
    }

    /// The exact text of a JSON number (or of a string holding one).
    func numberText(_ key: String) throws(ImportError) -> String? {
        guard let node = node(key) else { return nil }
        switch node.value {
        case let .number(text): return text
        case let .string(text): return text
        default: throw error(key, .expected(.number, found: node.kind))
        }
    }

    /// An integer.
    func int(_ key: String) throws(ImportError) -> Int? {
        guard let text = try numberText(key) else { return nil }
        guard let value = Int(text.trimmingWhitespace) else {
            throw error(key, .notAWholeNumber(text))
        }
        return value
    }

    /// A boolean.
    func bool(_ key: String) throws(ImportError) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case let .bool(flag) = node.value else {
            throw error(key, .expected(.bool, found: node.kind))
        }
        return flag
    }

    /// A nested object.
    func object(_ key: String) throws(ImportError) -> JSONObject? {
        guard let node = node(key) else { return nil }
        guard node.object != nil else { throw error(key, .expected(.object, found: node.kind)) }
        return try JSONObject(node, file: file, what: .field(key))
    }

    /// An array.
    func array(_ key: String) throws(ImportError) -> [JSONNode]? {
        guard let node = node(key) else { return nil }
        guard let items = node.array else { throw error(key, .expected(.array, found: node.kind)) }
        return items
    }

    /// An array of strings.
    func strings(_ key: String) throws(ImportError) -> [String]? {
        guard let items = try array(key) else { return nil }
        var result: [String] = []
        for item in items {
            guard case let .string(text) = item.value else {
                throw ImportError(file: file, line: item.line, column: key, problem: .stringsHoldOther(found: item.kind))
            }
            result.append(text)
        }
        return result
    }

    /// A rating object `{rate, count}`: `rate` 0–5 (read exactly, in hundredths), `count` ≥ 0.
    func rating(_ key: String, context: ImportContext) throws(ImportError) -> Rating? {
        guard let object = try object(key) else { return nil }
        guard let rateText = try object.numberText("rate") else { return nil }
        // Hundredths of a star are two decimals: parse exactly as if it were a 2-digit currency.
        guard let hundredths = try? Money.parse(rateText, currency: .usd).minorUnits,
              (0...500).contains(hundredths) else {
            throw object.error("rate", .notARating(rateText))
        }
        let count = try object.int("count") ?? 0
        guard count >= 0 else { throw object.error("count", .negativeRatingCount) }
        return Rating(rateHundredths: Int(hundredths), count: count)
    }
}

