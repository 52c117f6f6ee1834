public import ShopCore

/// Why a catalog file cannot be imported. Any such error means nothing is imported
/// (all-or-nothing): the merchant fixes the file and runs the import again.
///
/// The description (the CLI's English) names the place, e.g.
/// `catalog.csv:14: column “Variant Price”: “abc” is not a price such as 12.50`
/// or, for JSON, `products.json:7: field “price”: …`; `message(in:)` says the same in a staff
/// member's language. The `problem` is typed (`ImportProblem`), so an import job stores it and
/// shows it later in the language of whoever reads it.
public struct ImportError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file name as given to the importer (used only in messages).
    public var file: String
    /// The 1-based physical line where the offending CSV record starts (quoted newlines count),
    /// or the line of the offending JSON value; nil for whole-file problems.
    public var line: Int?
    /// The CSV header as written in the file (e.g. `"Variant Price"`) or the JSON field name
    /// (e.g. `"price"`); nil when the problem is not about one column.
    public var column: String?
    /// The 1-based CSV column number; nil for JSON and whole-row problems.
    public var columnIndex: Int?
    /// What is wrong and, where possible, what was expected.
    public var problem: ImportProblem

    /// Creates an error.
    public init(file: String, line: Int?, column: String? = nil, columnIndex: Int? = nil, problem: ImportProblem) {
        self.file = file
        self.line = line
        self.column = column
        self.columnIndex = columnIndex
        self.problem = problem
    }

    /// Creates an error at `location`.
    public init(file: String, at location: ImportLocation, problem: ImportProblem) {
        self.init(file: file, line: location.line, column: location.column, columnIndex: location.columnIndex,
                  problem: problem)
    }

    /// The problem as the CLI words it (`ImportProblem.description`), without the place.
    public var message: String { problem.description }

    /// `file:line: column “Name”: message` (CSV) or `file:line: field “name”: message` (JSON).
    public var description: String { place(in: .english) + ": " + problem.description }

    /// The place and the problem in `language`, for the back office, e.g.
    /// `catalog.csv, satır 14, “Variant Price” sütunu: “abc” geçerli bir fiyat değil (örneğin 12.50)`.
    public func message(in language: Language) -> String {
        place(in: language) + ": " + problem.message(in: language)
    }

    /// The file, line and column or field, in `language`.
    private func place(in language: Language) -> String {
        var place = file
        if let line { place = ImportMessages.text(.importAtLine, in: language, ["file": file, "line": String(line)]) }
        if let column {
            place = ImportMessages.text(columnIndex != nil ? .importInColumn : .importInField, in: language,
                                        ["place": place, "column": column])
        } else if let columnIndex {
            place = ImportMessages.text(.importInColumnNumber, in: language, ["place": place, "number": String(columnIndex)])
        }
        return place
    }
}

/// Where in a catalog file a value was read: the line, and the CSV column or JSON field.
public struct ImportLocation: Hashable, Sendable {
    /// The 1-based line (of the CSV record, or of the JSON value); nil when unknown.
    public var line: Int?
    /// The CSV header as written or the JSON field name; nil when not about one column.
    public var column: String?
    /// The 1-based CSV column number; nil for JSON.
    public var columnIndex: Int?

    /// Creates a location.
    public init(line: Int?, column: String? = nil, columnIndex: Int? = nil) {
        self.line = line
        self.column = column
        self.columnIndex = columnIndex
    }
}

/// Something the merchant should check, although the file was imported: a SKU Excel turned
/// into scientific notation, a SKU used twice, a currency that differs from the shop's.
public struct ImportWarning: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 1-based line the warning is about, if it is about one line.
    public var line: Int?
    /// What happened and what the importer did about it.
    public var caveat: ImportCaveat

    /// Creates a warning.
    public init(line: Int?, caveat: ImportCaveat) {
        self.line = line
        self.caveat = caveat
    }

    /// The caveat in English, without the line.
    public var message: String { caveat.description }

    /// `line 14: message`, or just the message.
    public var description: String { message(in: .english) }

    /// `description` in `language`.
    public func message(in language: Language) -> String {
        let text = caveat.message(in: language)
        guard let line else { return text }
        return ImportMessages.text(.importLine, in: language, ["line": String(line), "message": text])
    }
}

/// A record that is valid in its format but cannot become a product here (a WooCommerce grouped
/// or external product, a Shopify gift card, a variation without a price). Not an error.
public struct SkippedRow: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 1-based line where the record starts.
    public var line: Int
    /// The record's name, handle or SKU, for the report; may be empty.
    public var name: String
    /// Why it was skipped, e.g. `.grouped` (“grouped product: its children are imported on their own”).
    public var reason: SkipReason

    /// Creates a skipped-row note.
    public init(line: Int, name: String, reason: SkipReason) {
        self.line = line
        self.name = name
        self.reason = reason
    }

    /// `line 14 (“Logo Collection”): grouped product: …`.
    public var description: String { message(in: .english) }

    /// `description` in `language`.
    public func message(in language: Language) -> String {
        let arguments = ["line": String(line), "name": name, "message": reason.message(in: language)]
        return ImportMessages.text(name.isEmpty ? .importLine : .importLineNamed, in: language, arguments)
    }
}
