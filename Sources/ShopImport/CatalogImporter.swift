public import Foundation
public import ShopCore
import Synchronization

/// Reads catalog files (Fake Store API JSON, seed JSON, shoppable-json, Shopify CSV,
/// WooCommerce CSV) into `ProductDraft`s for the store to upsert in one transaction.
///
/// Reading is all-or-nothing: a bad record (an unparseable price, a missing title, negative
/// stock …) throws an `ImportError` naming the file, line and column, and no draft is returned.
/// Records that are valid but not sellable here are listed in `ImportResult.skipped`.
///
/// ```swift
/// let importer = CatalogImporter(currency: .usd)
/// let result = try importer.read(data, fileName: "products.csv", format: nil)
/// print(result.products.count, result.variantCount, result.warnings)
/// ```
public struct CatalogImporter: Sendable {
    /// The shop currency: every price in the file is read as an amount in it (no conversion).
    public var currency: Currency
    /// "Now", for WooCommerce scheduled sale prices (`Date sale price starts/ends`).
    public var now: Date
    /// The progress callback is called after every this many records (and once at the end).
    public var progressInterval: Int
    /// What a SKU already used on an earlier line (compared by `SKUIdentity.key(_:)`) does:
    /// false refuses the file naming both lines; true merges the SKU into the first line's
    /// variant (the later variant is imported without it, matched by its options), with a warning.
    public var mergesDuplicateSKUs: Bool
    /// A Shopify CSV file of at least this many bytes is read in two parts at once, one per
    /// core (`readShopifyCSV`); smaller files, in one pass.
    public var twoPartMinimumBytes: Int

    /// Creates an importer for a shop whose prices are in `currency`.
    /// - Parameters:
    ///   - currency: the shop currency.
    ///   - now: the current time, used to decide whether a scheduled sale price applies.
    ///   - progressInterval: records between progress callbacks (≥ 1).
    ///   - mergesDuplicateSKUs: merge a repeated SKU into its first variant instead of refusing the file.
    ///   - twoPartMinimumBytes: the size from which a Shopify CSV file is read in two parts at once.
    public init(currency: Currency, now: Date = Date(), progressInterval: Int = 500, mergesDuplicateSKUs: Bool = false,
                twoPartMinimumBytes: Int = 1 << 20) {
        self.mergesDuplicateSKUs = mergesDuplicateSKUs
        self.twoPartMinimumBytes = twoPartMinimumBytes
        self.currency = currency
        self.now = now
        self.progressInterval = max(progressInterval, 1)
    }

    /// Guesses the format from the content (the file name is only used in messages):
    /// JSON arrays of `{title, price}` objects are Fake Store; JSON objects with
    /// `"format": "shoppable-catalog"` are shoppable-json; JSON objects with a `products` array
    /// of `{name, price: {value}}` are seed JSON; CSV headers with `Handle`/`URL handle` and
    /// `Title` are Shopify; CSV headers with `Regular price` (or `Name` and `Parent`) are
    /// WooCommerce.
    /// - Throws: `ImportError` for an empty file, malformed JSON or CSV, or content that matches
    ///   no format (the message lists the formats and suggests `--format`).
    public func detectFormat(_ data: Data, fileName: String) throws(ImportError) -> CatalogFormat {
        try detect([UInt8](data), fileName: fileName).format
    }

    /// Reads a catalog file.
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8; a byte order mark is fine).
    ///   - fileName: the name to use in messages, e.g. `"catalog.csv"`.
    ///   - format: the format, or nil to detect it (`detectFormat`).
    ///   - progress: called with (records done, records total) every `progressInterval` records
    ///     and at the end.
    /// - Returns: the drafts, skipped records and warnings.
    /// - Throws: `ImportError` naming the file, line and column of the first bad record.
    public func read(_ data: Data, fileName: String, format: CatalogFormat? = nil,
                     progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws(ImportError) -> ImportResult {
        let bytes = [UInt8](data)
        var json: JSONNode?
        let chosen: CatalogFormat
        if let format {
            chosen = format
        } else {
            let detected = try detect(bytes, fileName: fileName)
            chosen = detected.format
            json = detected.json
        }
        var context = newContext(fileName: fileName, progress: progress)
        let products: [ProductDraft]
        switch chosen {
        case .fakeStore, .seedJSON, .shoppableJSON:
            let root: JSONNode
            if let json { root = json } else { root = try parseJSON(bytes, fileName: fileName) }
            switch chosen {
            case .fakeStore: products = try FakeStoreReader.read(root, context: &context)
            case .seedJSON: products = try SeedJSONReader.read(root, context: &context)
            default: products = try ShoppableJSONReader.read(root, context: &context)
            }
        case .shopifyCSV:
            products = try readShopifyCSV(bytes, fileName: fileName, context: &context)
        case .wooCommerceCSV:
            let records = try parseCSV(bytes, fileName: fileName)
            let table = try CSVTable(records: records, file: fileName)
            products = try WooCommerceCSVReader.read(table, context: &context)
        }
        return ImportResult(format: chosen, products: products, skipped: context.skipped,
                            warnings: context.warnings, imageLocations: context.imageLocations)
    }

    // MARK: Detection

    private func detect(_ bytes: [UInt8], fileName: String) throws(ImportError) -> (format: CatalogFormat, json: JSONNode?) {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        guard let first = bytes[start...].first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw ImportError(file: fileName, line: nil, problem: .fileEmpty)
        }
        let unknown = ImportError(file: fileName, line: nil,
                                  problem: .unknownFormat(formats: CatalogFormat.allCases.map(\.rawValue)))
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let root = try parseJSON(bytes, fileName: fileName)
            if let items = root.array {
                let firstItem = items.first?.object
                if firstItem == nil && items.isEmpty { return (.fakeStore, root) }
                if let firstItem, firstItem["title"] != nil, firstItem["price"] != nil { return (.fakeStore, root) }
                throw unknown
            }
            if let fields = root.object {
                if case let .string(format)? = fields["format"]?.value, format == "shoppable-catalog" {
                    return (.shoppableJSON, root)
                }
                if let items = fields["products"]?.array {
                    let firstItem = items.first?.object
                    if items.isEmpty || firstItem?["name"] != nil || firstItem?["price"]?.object != nil {
                        return (.seedJSON, root)
                    }
                }
            }
            throw unknown
        }
        let records = try parseCSV(bytes, fileName: fileName, limit: 1)
        let headers = Set((records.first?.fields ?? []).map(CSVTable.normalize))
        if (headers.contains("handle") || headers.contains("url handle")) && headers.contains("title") {
            return (.shopifyCSV, nil)
        }
        if headers.contains("regular price") || (headers.contains("name") && headers.contains("parent")) {
            return (.wooCommerceCSV, nil)
        }
        if let separator = CSVSeparator.instead(ofCommaIn: records.first?.fields ?? []) {
            throw ImportError(file: fileName, line: records.first?.line, problem: .separatedBy(separator))
        }
        throw unknown
    }

    private func parseJSON(_ bytes: [UInt8], fileName: String) throws(ImportError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw ImportError(file: fileName, line: error.line, columnIndex: error.column, problem: .invalidJSON(error.problem))
        }
    }

    /// Shopify CSV record by record: each row goes into its product as it is parsed, so the
    /// file is never held as records (100 000 rows of ~34 fields were ~100 MB; issue #13, point
    /// 6). A row's error can therefore be reported before a syntax error further down the file.
    ///
    /// A large file is read in two parts at once (one per core; issue #13, point 6), split where
    /// one product's rows end and the next one's start past the middle. The result is the one
    /// pass's, or the file is read again in one pass: when either part fails (so the error is the
    /// first one in the file), or when a product has rows in both parts (its rows are not
    /// together) or a SKU is in both (the error or warning names both lines).
    private func readShopifyCSV(_ bytes: [UInt8], fileName: String,
                                context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        let csv = CSVReader()
        let isLarge = bytes.count >= twoPartMinimumBytes
        let scan = csv.scan(bytes, startsFrom: bytes.count / 2, limit: isLarge ? Self.splitCandidates : 0)
        let total = max(scan.recordEstimate - 1, 0)
        if isLarge, let products = readShopifyCSVInTwoParts(bytes, starts: scan.starts, total: total,
                                                               fileName: fileName, context: &context) {
            return products
        }
        var reader: ShopifyCSVReader.Reader?
        var failure: ImportError?
        do throws(CSVReader.SyntaxError) {
            try csv.forEachRecord(in: bytes) { record in
                do throws(ImportError) {
                    if reader == nil {
                        reader = try ShopifyCSVReader.Reader(CSVTable(header: record, file: fileName))
                    } else if !CSVTable.isBlank(record) {
                        try reader!.add(record, total: total, context: &context)
                    }
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw ImportError(file: fileName, line: error.line, columnIndex: error.field, problem: .invalidCSV(error.problem))
        }
        if let failure { throw failure }
        guard let reader else { throw ImportError(file: fileName, line: nil, problem: .fileEmpty) }
        // The estimate counts blank lines too: make sure the last report says "all done".
        if reader.rowsRead != total { context.reportProgress(done: reader.rowsRead, total: reader.rowsRead) }
        return reader.finish(context: &context)
    }

    /// The two-part read of a Shopify CSV file alone, whatever its size (for tests): nil when
    /// `readShopifyCSV` would read it in one pass instead.
    func readShopifyCSVInTwoParts(_ data: Data, fileName: String) -> ImportResult? {
        let bytes = [UInt8](data)
        let scan = CSVReader().scan(bytes, startsFrom: bytes.count / 2, limit: Self.splitCandidates)
        var context = newContext(fileName: fileName, progress: nil)
        guard let products = readShopifyCSVInTwoParts(bytes, starts: scan.starts, total: max(scan.recordEstimate - 1, 0),
                                                      fileName: fileName, context: &context) else { return nil }
        return ImportResult(format: .shopifyCSV, products: products, skipped: context.skipped,
                            warnings: context.warnings, imageLocations: context.imageLocations)
    }

    /// The record starts past the middle of a file where a split is looked for (the first handle
    /// change among them); a product with more rows than this across the middle is read in one pass.
    private static let splitCandidates = 64

    /// The state one read of `fileName` starts from.
    private func newContext(fileName: String, progress: ((Int, Int) -> Void)?) -> ImportContext {
        var context = ImportContext(file: fileName, currency: currency, now: now, progressInterval: progressInterval,
                                    progress: progress)
        context.mergesDuplicateSKUs = mergesDuplicateSKUs
        return context
    }

    /// `readShopifyCSV`'s two parts, or nil (nothing changed) when the file must be read in one pass.
    /// - Parameter starts: where records start past the middle of the file (`CSVReader.scan`).
    private func readShopifyCSVInTwoParts(_ bytes: [UInt8], starts: [CSVReader.RecordStart], total: Int,
                                          fileName: String, context: inout ImportContext) -> [ProductDraft]? {
        let csv = CSVReader()
        guard let header = try? csv.records(in: bytes, limit: 1).first,
              let reader = try? ShopifyCSVReader.Reader(CSVTable(header: header, file: fileName)) else { return nil }
        // The first record past the middle whose handle is not the one of the record before it.
        var split: CSVReader.RecordStart?
        var previousHandle: String?
        for start in starts {
            var handle: String?
            _ = try? csv.forEachRecord(in: bytes, range: start.offset..<bytes.count, firstLine: start.line) { record in
                handle = reader.givenHandle(record)
                return false
            }
            guard let handle else { return nil }
            if let previousHandle, !handle.isEmpty, handle != previousHandle {
                split = start
                break
            }
            previousHandle = handle
        }
        guard let split else { return nil }

        // The second part on another thread; it reports its rows to the first, which reports both.
        let secondRows = RowCount()
        let second = ShopifyCSVPart(reader: reader, context: newContext(fileName: fileName, progress: { done, _ in secondRows.store(done) }))
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            second.read(bytes, range: split.offset..<bytes.count, firstLine: split.line)
        }
        let progress = context.progress
        let first = ShopifyCSVPart(reader: reader, context: newContext(fileName: fileName, progress: progress.map { report in
            { done, total in report(done + secondRows.load(), total) }
        }))
        first.skipsHeader = true
        first.total = total
        first.read(bytes, range: 0..<split.offset, firstLine: 1)
        group.wait()

        // Both parts read without an error, the first up to the line the second starts on, and
        // no product, SKU or handle in both: the one pass would have read the same.
        // The parts let go of their readers, so the merge adds to the first one's products in
        // place instead of copying them.
        guard first.isComplete, second.isComplete, first.endLine == split.line,
              var merged = first.reader.take(), let later = second.reader.take(), merged.append(later) else { return nil }
        var mergedContext = context
        guard mergedContext.append(first.context), mergedContext.append(second.context) else { return nil }
        context = mergedContext
        // The parts' reports need not have reached the end together: say "all done" once.
        context.reportProgress(done: merged.rowsRead, total: merged.rowsRead)
        return merged.finish(context: &context)
    }

    private func parseCSV(_ bytes: [UInt8], fileName: String, limit: Int = .max) throws(ImportError) -> [CSVReader.Record] {
        do {
            return try CSVReader().records(in: bytes, limit: limit)
        } catch {
            throw ImportError(file: fileName, line: error.line, columnIndex: error.field, problem: .invalidCSV(error.problem))
        }
    }
}

/// One of the two parts of a large Shopify CSV file read at once (`readShopifyCSV`), each on its
/// own thread; the caller reads the fields only after the part's thread has ended.
private final class ShopifyCSVPart: @unchecked Sendable {
    var reader: ShopifyCSVReader.Reader?
    var context: ImportContext
    /// The part starts with the file's header record (the first part), which is skipped.
    var skipsHeader = false
    /// The rows of the whole file (estimated), for progress.
    var total = 0
    /// Whether every record of the part was read without an error.
    private(set) var isComplete = false
    /// The line the reader stopped on.
    private(set) var endLine = 0

    init(reader: ShopifyCSVReader.Reader, context: ImportContext) {
        self.reader = reader
        self.context = context
    }

    func read(_ bytes: [UInt8], range: Range<Int>, firstLine: Int) {
        var isHeader = skipsHeader
        var failed = false
        do throws(CSVReader.SyntaxError) {
            endLine = try CSVReader().forEachRecord(in: bytes, range: range, firstLine: firstLine) { record in
                if isHeader {
                    isHeader = false
                    return true
                }
                guard !CSVTable.isBlank(record) else { return true }
                do throws(ImportError) {
                    try reader!.add(record, total: total, context: &context)
                    return true
                } catch {
                    failed = true
                    return false
                }
            }
            isComplete = !failed
        } catch {
            isComplete = false
        }
    }
}

/// A row count one thread writes and another reads.
private final class RowCount: Sendable {
    private let value = Atomic<Int>(0)
    func store(_ count: Int) { value.store(count, ordering: .relaxed) }
    func load() -> Int { value.load(ordering: .relaxed) }
}

/// A column of a CSV file (header as written + 1-based index) or a JSON field name.
struct Column {
    var name: String
    var index: Int?
}

/// State shared by the readers while one file is read: messages, SKUs and handles seen.
struct ImportContext {
    let file: String
    let currency: Currency
    let now: Date
    let progressInterval: Int
    let progress: ((Int, Int) -> Void)?
    var warnings: [ImportWarning] = []
    var skipped: [SkippedRow] = []
    /// Where each image URL first appears.
    private(set) var imageLocations: [String: ImportLocation] = [:]
    /// First line each SKU was seen on, by `SKUIdentity.key(_:)`.
    private var skuLines: [String: Int] = [:]
    /// Currency signs already warned about (`ImportCaveat.priceSign`).
    private var warnedSigns: Set<String> = []
    /// `CatalogImporter.mergesDuplicateSKUs`.
    var mergesDuplicateSKUs = false
    /// First line each handle was used on.
    private var handleLines: [String: Int] = [:]
    /// For each handle that collided, the next number `uniqueHandle` tries after it.
    private var nextHandleNumber: [String: Int] = [:]

    init(file: String, currency: Currency, now: Date, progressInterval: Int, progress: ((Int, Int) -> Void)?) {
        self.file = file
        self.currency = currency
        self.now = now
        self.progressInterval = progressInterval
        self.progress = progress
    }

    func error(line: Int?, _ column: Column?, _ problem: ImportProblem) -> ImportError {
        ImportError(file: file, line: line, column: column?.name, columnIndex: column?.index, problem: problem)
    }

    /// Throws when `text` is longer than `limit` allows, naming the line and column.
    func checkLength(_ text: some StringProtocol, _ limit: TextLimit, line: Int, _ column: Column?) throws(ImportError) {
        if let problem = limit.violation(by: text) { throw error(line: line, column, problem) }
    }

    /// An image of a product, read at `line` in `column`: the URL and alt text are checked
    /// against their limits and the first place each URL appears is remembered (for
    /// `ImportResult.imageLocations`).
    mutating func image(_ url: String, altText: String, line: Int, _ column: Column?) throws(ImportError) -> ProductImage {
        try checkLength(url, .imageURL, line: line, column)
        if !Self.isImageAddress(url) { throw error(line: line, column, .notAnImageAddress(url)) }
        try checkLength(altText, .altText, line: line, column)
        if imageLocations[url] == nil {
            imageLocations[url] = ImportLocation(line: line, column: column?.name, columnIndex: column?.index)
        }
        return ProductImage(url: url, altText: altText)
    }

    /// `true` unless `url` starts with a scheme other than `http`, `https`, `file` or an image's
    /// `data:image/…`: a web address, a path on this site, a local file's path (the media
    /// library reads those) or an inline picture is an image; `javascript:`, `data:text/html`
    /// and the like are not, and pages would put them in `src` and links.
    static func isImageAddress(_ url: String) -> Bool {
        // As a browser reads it (WHATWG URL): C0 controls and spaces before it, and every tab
        // and line break inside it, are ignored (`java\tscript:` is `javascript:`).
        let trimmed = String(String.UnicodeScalarView(url.unicodeScalars.filter { !["\t", "\n", "\r"].contains($0) })
            .drop { $0.value <= 0x20 })
        // RFC 3986 §3.1: a scheme is a letter, then letters, digits, `+`, `-` or `.`, then `:`;
        // a `/`, `?` or `#` before any `:` makes it a path.
        guard let colon = trimmed.firstIndex(where: { ":/?#".contains($0) }), trimmed[colon] == ":" else { return true }
        let scheme = trimmed[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return true }
        let lower = trimmed.lowercased()
        return ["http", "https", "file"].contains(scheme.lowercased()) || lower.hasPrefix("data:image/")
    }

    mutating func warn(line: Int?, _ caveat: ImportCaveat) {
        warnings.append(ImportWarning(line: line, caveat: caveat))
    }

    mutating func skip(line: Int, name: String, _ reason: SkipReason) {
        skipped.append(SkippedRow(line: line, name: name, reason: reason))
    }

    /// Reports progress after every `progressInterval` records and at the end.
    func reportProgress(done: Int, total: Int) {
        guard let progress else { return }
        if done == total || done % progressInterval == 0 { progress(done, total) }
    }

    /// Parses a price in major units (`"49.90"`, `"1,299"`, `"1.2E+3"`) in the shop currency.
    /// - Throws: `ImportError` when it is not a non-negative decimal amount.
    /// A leading currency sign is read as the shop currency; one that is not the shop
    /// currency's (`€139.00` in a USD shop) is said once per sign, as JSON files' currencies are.
    mutating func price(_ text: String, line: Int, _ column: Column) throws(ImportError) -> Money {
        let trimmed = text.trimmingWhitespace
        // Most prices start with a digit: no sign to look at (this runs for every price of a file).
        if let first = trimmed.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            let sign = String(trimmed.drop { $0 == "-" || $0 == "+" }.prefix { !$0.isNumber && $0 != "." })
                .trimmingWhitespace
            if !sign.isEmpty, !(SeedJSONReader.symbols[sign.lowercased()]?.contains(currency.code) ?? false),
               warnedSigns.insert(sign).inserted {
                warn(line: line, .priceSign(price: trimmed, sign: sign, shopCurrency: currency.code))
            }
        }
        let money: Money
        do {
            money = try Money.parse(trimmed, currency: currency)
        } catch {
            throw self.error(line: line, column, .notAPrice(trimmed))
        }
        guard money.minorUnits >= 0 else {
            throw self.error(line: line, column, .negativePrice(trimmed))
        }
        return money
    }

    /// Trims a SKU, expands one that Excel turned into scientific notation (with a warning), and
    /// refuses one already used on an earlier variant, compared trimmed and case-insensitively
    /// (`SKUIdentity`), naming both lines — or, with `mergesDuplicateSKUs`, leaves it to the
    /// earlier variant with a warning.
    /// - Returns: the SKU to store, or nil.
    /// - Throws: `ImportError` at `line` and `column` for a repeated SKU.
    mutating func claimSKU(_ raw: String, line: Int, _ column: Column?) throws(ImportError) -> String? {
        var sku = raw.trimmingWhitespace
        guard !sku.isEmpty else { return nil }
        if let expanded = Self.expandScientific(sku) {
            warn(line: line, .scientificSKU(sku: sku, expanded: expanded))
            sku = expanded
        }
        guard let key = SKUIdentity.key(sku) else { return nil }
        if let earlier = skuLines[key] {
            guard mergesDuplicateSKUs else {
                // A file on one line (minified JSON) would say "line 1: … already used on line 1".
                throw error(line: line, column, earlier == line ? .duplicateSKUOnTheSameLine(sku: sku)
                                                                : .duplicateSKU(sku: sku, earlierLine: earlier))
            }
            warn(line: line, .mergedSKU(sku: sku, earlierLine: earlier, line: line))
            return nil
        }
        skuLines[key] = line
        return sku
    }

    /// Takes over what `later`, the context of a reader of the lines after this one's, saw, as
    /// if this context had seen it. Returns false, changing nothing, when both saw one SKU or
    /// handle (the file is then read again in one pass, so the message names the right lines).
    mutating func append(_ later: ImportContext) -> Bool {
        guard !later.skuLines.keys.contains(where: { skuLines[$0] != nil }),
              !later.handleLines.keys.contains(where: { handleLines[$0] != nil }) else { return false }
        // A price sign is said once per file: the later part's, when this one said it already.
        warnings += later.warnings.filter { warning in
            guard case let .priceSign(_, sign, _) = warning.caveat else { return true }
            return !warnedSigns.contains(sign)
        }
        warnedSigns.formUnion(later.warnedSigns)
        skipped += later.skipped
        imageLocations.merge(later.imageLocations) { mine, _ in mine }
        skuLines.merge(later.skuLines) { mine, _ in mine }
        handleLines.merge(later.handleLines) { mine, _ in mine }
        nextHandleNumber.merge(later.nextHandleNumber) { mine, _ in mine }
        return true
    }

    /// Returns `base` if no earlier product of this file uses it, else `base-suffix` (e.g. the
    /// record's id) or `base-2`, `base-3` …, with a warning.
    mutating func uniqueHandle(_ base: String, suffix: String?, line: Int) -> String {
        guard let earlier = handleLines[base] else {
            handleLines[base] = line
            return base
        }
        var candidate = base
        if let suffix, !suffix.isEmpty {
            candidate = base + "-" + Handle.make(from: suffix)
        }
        // Numbering resumes where the last collision of `base` stopped, so N products with one
        // title cost N look-ups, not N²/2.
        var counter = nextHandleNumber[base] ?? 2
        while handleLines[candidate] != nil {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        nextHandleNumber[base] = counter
        handleLines[candidate] = line
        warn(line: line, .renamedHandle(handle: base, earlierLine: earlier, newHandle: candidate))
        return candidate
    }

    /// Marks `handle` as used; returns the line of an earlier product that used it, if any.
    mutating func register(handle: String, line: Int) -> Int? {
        if let earlier = handleLines[handle] { return earlier }
        handleLines[handle] = line
        return nil
    }

    /// `"3.65275E+11"` → `"365275000000"`: a number in scientific notation that denotes an
    /// integer, written out in digits; nil when `text` is not such a number.
    static func expandScientific(_ text: String) -> String? {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "e" || $0 == "E" })
        guard parts.count == 2 else { return nil }
        var exponentText = Substring(parts[1])
        if exponentText.hasPrefix("+") { exponentText = exponentText.dropFirst() }
        guard let exponent = Int(exponentText), exponent >= 0, exponent < 40 else { return nil }
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard mantissa.count <= 2, let whole = mantissa.first, !whole.isEmpty,
              whole.allSatisfy({ $0.isASCIIDigit }) else { return nil }
        let fraction = mantissa.count == 2 ? mantissa[1] : ""
        guard fraction.allSatisfy({ $0.isASCIIDigit }), fraction.count <= exponent else { return nil }
        let digits = (String(whole) + fraction + String(repeating: "0", count: exponent - fraction.count))
            .drop(while: { $0 == "0" })
        return digits.isEmpty ? "0" : String(digits)
    }

    /// Tags trimmed, without empties and without case-insensitive duplicates, in order.
    /// - Throws: `ImportError` at `line` and `column` when a tag is longer than `TextLimit.tag`.
    func uniqueTags(_ tags: some Sequence<some StringProtocol>, line: Int, _ column: Column?) throws(ImportError) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for tag in tags {
            let trimmed = tag.trimmingWhitespace
            try checkLength(trimmed, .tag, line: line, column)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            result.append(trimmed)
        }
        return result
    }

    /// A category name (trimmed), or nil when empty.
    /// - Throws: `ImportError` at `line` and `column` when it is longer than `TextLimit.name`.
    /// The last level of a category path as Shopify's `Product Category` and WooCommerce's
    /// `Categories` write it (`Home & Garden > Decor > Vases` → `Vases`): levels are separated
    /// by `>` with a space either side, so a name with a bare `>` in it stays whole (a fresh
    /// tester's `<svg onload=…>Cat`, typed in the back office, came back from its own export
    /// as `Cat`).
    /// A separator at the end (`Home > Decor > `, a path cut short) is dropped, not read as an
    /// empty last level (which left the product without a category).
    static func lastCategoryLevel(_ text: some StringProtocol) -> Substring {
        var path = Substring(text.trimmingWhitespace)
        while path.hasSuffix(" >") { path = Substring(path.dropLast(2).trimmingWhitespace) }
        guard let separator = path.ranges(of: " > ").last else { return path }
        return path[separator.upperBound...]
    }

    func category(_ name: (some StringProtocol)?, line: Int, _ column: Column?) throws(ImportError) -> String? {
        guard let trimmed = name?.trimmingWhitespace, !trimmed.isEmpty else { return nil }
        try checkLength(trimmed, .name, line: line, column)
        return trimmed
    }

    /// The compare-at price to keep: only one above `price`.
    static func compareAt(_ compareAt: Money?, above price: Money) -> Money? {
        guard let compareAt, compareAt.minorUnits > price.minorUnits else { return nil }
        return compareAt
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// How option values are compared when looking for two variants with the same options:
/// trimmed and case-insensitively ("Red" and " red" are the same colour), as the store does
/// (`CatalogUpsertRules.optionKey(_:)`), so a file the reader accepts is one the store accepts.
enum OptionValues {
    static func key(_ values: [String]) -> [String] {
        values.map { $0.trimmedOfWhiteSpace.lowercased() }
    }
}
