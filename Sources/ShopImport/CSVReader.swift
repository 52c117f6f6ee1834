public import Foundation

/// A CSV reader following RFC 4180, working on UTF-8 bytes (never on `Character`s, because
/// Swift treats `"\r\n"` as one `Character`).
///
/// - A UTF-8 byte order mark at the start is skipped.
/// - Records end at CRLF, LF or a lone CR; a missing final line break is fine.
/// - Quoted fields may contain the delimiter, line breaks (returned as `"\n"`), `U+2028` and
///   doubled quotes (`""` → `"`). Spaces before an opening quote or after a closing quote are
///   ignored (common writer habit); any other text after a closing quote is an error.
/// - A quote inside an unquoted field is kept as a literal character (lenient, like Excel).
/// - Empty lines are skipped; every other record is returned with the physical line it starts on.
///
/// ```swift
/// let records = try CSVReader().records(in: Array("a,\"b\nc\"\r\nd,e".utf8))
/// // [["a", "b\nc"] at line 1, ["d", "e"] at line 3]
/// ```
public struct CSVReader: Sendable {
    /// One record: its fields (unquoted, unescaped) and where it starts.
    public struct Record: Hashable, Sendable {
        /// The field values in column order.
        public var fields: [String]
        /// The 1-based physical line the record starts on (line breaks inside quoted fields
        /// of earlier records count).
        public var line: Int

        /// Creates a record.
        public init(fields: [String], line: Int) {
            self.fields = fields
            self.line = line
        }
    }

    /// Malformed CSV: where and what.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line of the problem.
        public var line: Int
        /// The 1-based field number in its record.
        public var field: Int
        /// What is wrong.
        public var problem: CSVSyntaxProblem
        /// What is wrong, in English.
        public var message: String { problem.description }

        /// `line 3, field 2: message`.
        public var description: String { "line \(line), field \(field): \(message)" }
    }

    /// The field separator byte (`,` by default; `;` or tab for other dialects).
    public var delimiter: UInt8

    /// Creates a reader for `delimiter`-separated values.
    public init(delimiter: UInt8 = UInt8(ascii: ",")) {
        self.delimiter = delimiter
    }

    /// Reads all records of `data`.
    /// - Throws: `SyntaxError` for an unclosed quoted field, text after a closing quote, or
    ///   bytes that are not UTF-8.
    public func records(in data: Data) throws(SyntaxError) -> [Record] {
        try records(in: [UInt8](data))
    }

    /// Reads the records of `bytes`, at most `limit` of them.
    /// - Throws: `SyntaxError` for an unclosed quoted field, text after a closing quote, or
    ///   bytes that are not UTF-8.
    public func records(in bytes: [UInt8], limit: Int = .max) throws(SyntaxError) -> [Record] {
        var records: [Record] = []
        guard limit > 0 else { return records }
        try forEachRecord(in: bytes) { record in
            records.append(record)
            return records.count < limit
        }
        return records
    }

    /// Calls `body` with each record of `bytes` in turn, without keeping them (a reader of a
    /// large file holds one record at a time, not 100 000), until `body` returns false.
    /// - Throws: `SyntaxError` for an unclosed quoted field, text after a closing quote, or
    ///   bytes that are not UTF-8, met before `body` asked to stop.
    public func forEachRecord(in bytes: [UInt8], _ body: (Record) -> Bool) throws(SyntaxError) {
        try forEachRecord(in: bytes, range: bytes.indices, firstLine: 1, body)
    }

    /// Calls `body` with each record of `bytes[range]`, as `forEachRecord(in:_:)` does for the
    /// whole: `range` starts where a record starts (a byte order mark is skipped only at 0), its
    /// first line is `firstLine`, and a quoted field still open at its end is an error. A reader
    /// of one part of a large file (`RecordStart`) numbers its lines as a reader of the whole would.
    /// - Returns: the line the reader stopped on (after the last line break read).
    /// - Throws: `SyntaxError` as `forEachRecord(in:_:)`.
    @discardableResult
    public func forEachRecord(in bytes: [UInt8], range: Range<Int>, firstLine: Int,
                              _ body: (Record) -> Bool) throws(SyntaxError) -> Int {
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        var stopped = false
        var fields: [String] = []
        var field: [UInt8] = []
        var index = range.lowerBound
        let count = range.upperBound
        if index == 0, count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        var line = firstLine
        var recordLine = firstLine
        var inQuotes = false
        var quoteStartLine = 1
        var wasQuoted = false
        var afterClosingQuote = false

        func finishField() throws(SyntaxError) {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw SyntaxError(line: line, field: fields.count + 1, problem: .notUTF8)
            }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
            afterClosingQuote = false
        }
        func finishRecord() {
            // An empty line is one unquoted empty field: skip it.
            if !(fields.count == 1 && fields[0].isEmpty) {
                stopped = !body(Record(fields: fields, line: recordLine))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < count, !stopped {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    if index + 1 < count, bytes[index + 1] == quote {
                        field.append(quote)
                        index += 2
                        continue
                    }
                    inQuotes = false
                    afterClosingQuote = true
                } else if byte == cr {
                    line += 1
                    field.append(lf)
                    if index + 1 < count, bytes[index + 1] == lf { index += 1 }
                } else {
                    if byte == lf { line += 1 }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case delimiter:
                try finishField()
            case cr, lf:
                try finishField()
                finishRecord()
                if byte == cr, index + 1 < count, bytes[index + 1] == lf { index += 1 }
                line += 1
                recordLine = line
            case quote where !afterClosingQuote && !wasQuoted && field.allSatisfy({ $0 == space }):
                field.removeAll(keepingCapacity: true)
                inQuotes = true
                wasQuoted = true
                quoteStartLine = line
            case space where afterClosingQuote:
                break
            default:
                if afterClosingQuote {
                    throw SyntaxError(line: line, field: fields.count + 1, problem: .textAfterClosingQuote)
                }
                field.append(byte)
            }
            index += 1
        }
        if stopped { return line }
        if inQuotes {
            throw SyntaxError(line: quoteStartLine, field: fields.count + 1, problem: .unclosedQuote)
        }
        if !field.isEmpty || !fields.isEmpty || wasQuoted {
            try finishField()
            finishRecord()
        }
        return line
    }

    /// Where a record starts: its first byte and its physical line.
    public struct RecordStart: Hashable, Sendable {
        /// The offset of the record's first byte.
        public var offset: Int
        /// The 1-based line it starts on.
        public var line: Int
    }

    /// A cheap pass over `bytes` that follows quotes as `forEachRecord` does without building
    /// fields: how many records there are (`recordCountEstimate`), and up to `limit` places
    /// where a record starts at or after `offset`, so a large file can be read in parts. A
    /// reader of a part checks its start: a part that does not end where a record ends leaves
    /// a quoted field open, which `forEachRecord(in:range:firstLine:_:)` reports.
    public func scan(_ bytes: [UInt8], startsFrom offset: Int = .max, limit: Int = 0)
        -> (recordEstimate: Int, starts: [RecordStart]) {
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        var inQuotes = false
        var atFieldStart = true
        var count = 0
        var line = 1
        var starts: [RecordStart] = []
        var index = 0
        let end = bytes.count
        // The reader skips a byte order mark: a quote right after it opens the first field.
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < end {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    if index + 1 < end, bytes[index + 1] == quote {
                        index += 2
                        continue
                    }
                    inQuotes = false
                    atFieldStart = false
                } else if byte == cr || (byte == lf && (index == 0 || bytes[index - 1] != cr)) {
                    line += 1
                }
                index += 1
                continue
            }
            switch byte {
            case cr, lf:
                if byte == lf, index > 0, bytes[index - 1] == cr {
                    break  // the second byte of CRLF: counted at the CR
                }
                line += 1
                count += 1
                atFieldStart = true
                let next = byte == cr && index + 1 < end && bytes[index + 1] == lf ? index + 2 : index + 1
                if next >= offset, starts.count < limit, next < end {
                    starts.append(RecordStart(offset: next, line: line))
                }
            case delimiter:
                atFieldStart = true
            case quote where atFieldStart:
                inQuotes = true
            case space:
                break
            default:
                atFieldStart = false
            }
            index += 1
        }
        let last = bytes.last
        let estimate = last == lf || last == cr || bytes.isEmpty ? count : count + 1
        return (estimate, starts)
    }

    /// How many records `bytes` holds, counting line breaks outside quoted fields (a cheap
    /// pass, for progress: empty lines count too, so it may be a little more than the records).
    public func recordCountEstimate(in bytes: [UInt8]) -> Int {
        scan(bytes).recordEstimate
    }
}
