/// Why a catalog file cannot be imported. Any such error means nothing is imported
/// (all-or-nothing): the merchant fixes the file and runs the import again.
///
/// The description names the place, e.g.
/// `catalog.csv:14: column “Variant Price”: “abc” is not a price such as 12.50`
/// or, for JSON, `products.json:7: field “price”: …`.
public struct ImportError: Error, Hashable, Sendable, CustomStringConvertible {
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
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, column: String? = nil, columnIndex: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.columnIndex = columnIndex
        self.message = message
    }

    /// Creates an error at `location`.
    public init(file: String, at location: ImportLocation, message: String) {
        self.init(file: file, line: location.line, column: location.column, columnIndex: location.columnIndex,
                  message: message)
    }

    /// `file:line: column “Name”: message` (CSV) or `file:line: field “name”: message` (JSON).
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let column {
            text += (columnIndex != nil ? "column" : "field") + " “\(column)”: "
        } else if let columnIndex {
            text += "column \(columnIndex): "
        }
        return text + message
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
public struct ImportWarning: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line the warning is about, if it is about one line.
    public var line: Int?
    /// What happened and what the importer did about it.
    public var message: String

    /// Creates a warning.
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    /// `line 14: message`, or just the message.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// A record that is valid in its format but cannot become a product here (a WooCommerce grouped
/// or external product, a Shopify gift card, a variation without a price). Not an error.
public struct SkippedRow: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line where the record starts.
    public var line: Int
    /// The record's name, handle or SKU, for the report; may be empty.
    public var name: String
    /// Why it was skipped, e.g. `"grouped product: its children are imported on their own"`.
    public var reason: String

    /// Creates a skipped-row note.
    public init(line: Int, name: String, reason: String) {
        self.line = line
        self.name = name
        self.reason = reason
    }

    /// `line 14 (“Logo Collection”): grouped product: …`.
    public var description: String {
        "line \(line)" + (name.isEmpty ? "" : " (“\(name)”)") + ": " + reason
    }
}
