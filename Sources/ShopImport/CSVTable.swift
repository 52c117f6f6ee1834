/// A CSV file as a header plus records, with columns looked up by (normalized) header name.
struct CSVTable {
    let file: String
    /// Headers as written (trimmed).
    let headers: [String]
    /// Headers lower-cased, trimmed, inner whitespace collapsed.
    let normalized: [String]
    /// The records after the header, without all-empty rows.
    let rows: [CSVReader.Record]
    /// The line of the header record.
    let headerLine: Int

    init(records: [CSVReader.Record], file: String) throws(ImportError) {
        guard let header = records.first else {
            throw ImportError(file: file, line: nil, problem: .fileEmpty)
        }
        self.init(header: header, rows: records.dropFirst().filter { !Self.isBlank($0) }, file: file)
    }

    /// A table of `header` whose rows a reader takes one at a time (`rows` empty): a large
    /// file is not held as records (issue #13, point 6). Skip rows that are `isBlank`.
    init(header: CSVReader.Record, rows: [CSVReader.Record] = [], file: String) {
        self.file = file
        self.headers = header.fields.map(\.trimmingWhitespace)
        self.normalized = header.fields.map(Self.normalize)
        self.headerLine = header.line
        self.rows = rows
    }

    /// A row of white space only, which readers skip.
    static func isBlank(_ record: CSVReader.Record) -> Bool {
        record.fields.allSatisfy { $0.allSatisfy(\.isWhitespace) }
    }

    /// `"  Variant  PRICE "` → `"variant price"`.
    static func normalize(_ header: String) -> String {
        header.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// The first column whose header is one of `aliases` (normalized).
    func column(_ aliases: [String]) -> Column? {
        for alias in aliases {
            if let index = normalized.firstIndex(of: alias) {
                return Column(name: headers[index], index: index + 1)
            }
        }
        return nil
    }

    /// The column whose header is one of `aliases`, as ``column(_:)``, refusing a header with two
    /// such columns: the second was ignored without a word (a fresh tester's second `Variant
    /// Price`), and which of two a merchant meant cannot be told.
    func onlyColumn(_ aliases: [String]) throws(ImportError) -> Column? {
        let indices = normalized.indices.filter { aliases.contains(normalized[$0]) }
        if indices.count > 1 {
            throw ImportError(file: file, line: headerLine, column: headers[indices[1]], columnIndex: indices[1] + 1,
                              problem: .columnTwice(first: indices[0] + 1, second: indices[1] + 1))
        }
        return column(aliases)
    }

    /// Throws unless one of `aliases` is a header.
    func require(_ aliases: [String], displayName: String) throws(ImportError) -> Column {
        guard let column = column(aliases) else {
            if let separator = CSVSeparator.instead(ofCommaIn: headers) {
                throw ImportError(file: file, line: headerLine, problem: .separatedBy(separator))
            }
            throw ImportError(file: file, line: headerLine, problem: .missingColumn(displayName))
        }
        return column
    }

    /// Throws when a record has more fields than the header and the extra ones are not empty
    /// (a sign of a missing quote); empty trailing columns are fine.
    func checkWidth(_ record: CSVReader.Record) throws(ImportError) {
        guard record.fields.count > headers.count else { return }
        if let extra = record.fields[headers.count...].firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) {
            throw ImportError(file: file, line: record.line, columnIndex: extra + 1,
                              problem: .extraFields(fields: record.fields.count, columns: headers.count))
        }
    }
}

extension CSVReader.Record {
    /// The raw field in `column`; empty when the column is absent or the row is short.
    subscript(_ column: Column?) -> String {
        guard let index = column?.index, index - 1 < fields.count else { return "" }
        return fields[index - 1]
    }

    /// The trimmed field in `column`.
    func trimmed(_ column: Column?) -> String { self[column].trimmingWhitespace }
}
