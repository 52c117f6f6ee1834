import Foundation
import ShopCore
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite
import ShopWebLive

/// `shoppable import FILE`: parses the options, hands the file to `CatalogImportService` (read,
/// check whole, copy local images, upsert in one transaction) and prints its report.
enum ImportCommand {
    static func run(_ options: Options) throws {
        guard options.arguments.count == 2 else { throw UsageError("import needs exactly one FILE") }
        let path = options.arguments[1]
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read “\(path)”") }
        let format: CatalogFormat?
        switch options.value("format", default: "auto")! {
        case "auto": format = nil
        case let name:
            guard let chosen = CatalogFormat(rawValue: name) else {
                throw UsageError("--format must be auto or one of \(CatalogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format = chosen
        }
        let currency = try options.currency()
        let dryRun = options.has("dry-run")
        let databasePath = try options.database.description
        let localMedia = try localMedia(options, catalogPath: path)
        let remoteMedia = try remoteMedia(options)
        let authorities = try certificateAuthorities(options)
        let media = MediaLibrary.directory(try mediaDirectory(options))
        // A dry run writes nothing, not even a new database file: it previews against the shop's
        // database when there is one (a rolled-back transaction), else against an empty one.
        let database = dryRun
            ? try openExistingDatabase(options) ?? .sqlite(SQLiteDatabase.open(path: ":memory:", poolSize: 1))
            : try openDatabase(options, poolSize: 1)
        defer { database.close() }
        try database.configureForBulkWrite()
        let service = CatalogImportService(catalog: database.catalog(currency: currency), media: media, currency: currency,
                                           images: .vips(), downloader: .curl(certificateAuthorities: authorities))

        let fileName = (path as NSString).lastPathComponent
        let display = ImportProgressDisplay(isTerminal: isatty(STDERR_FILENO) == 1, isLarge: data.count > 1_000_000)
        let started = ContinuousClock.now
        let report: CatalogImportReport
        do {
            defer { display.finish() }
            report = try service.importCatalog(data, fileName: fileName, format: format, options: .init(
                dryRun: dryRun, localMedia: localMedia,
                progress: { done, total in display.advance(done: done, total: total) },
                mergesDuplicateSKUs: options.has("merge-duplicate-skus"),
                phase: { phase in display.start(phase, dryRun: dryRun) }, remoteMedia: remoteMedia))
        }
        print(describe(report, database: databasePath, duration: ContinuousClock.now - started))
    }

    /// The report as the merchant reads it: what the file holds, its caveats, what changed.
    static func describe(_ report: CatalogImportReport, database: String, duration: Duration? = nil) -> String {
        var lines = ["\(report.fileName): \(report.format.rawValue), \(report.productCount) products, "
            + "\(report.variantCount) variants, \(report.imageCount) images"]
        if report.productCount == 0 { lines.append("  warning: the file has no products (only a header, or an empty list)") }
        lines += report.warnings.map { "  warning: \($0.description)" }
        lines += report.skipped.map { "  skipped: \($0.description)" }
        guard let changes = report.changes else {
            lines.append("dry run: the file is valid; nothing written")
            if report.imagesDownloaded > 0 {
                lines.append("  images     \(report.imagesDownloaded) downloaded and checked (not stored)")
            }
            if let preview = report.preview {
                lines.append("""
                what an import into \(database) would do:
                  products   \(preview.productsCreated) created, \(preview.productsUpdated) updated, \
                \(preview.productsUnchanged) unchanged
                """)
                lines += preview.products.map { outcome in
                    let word = switch outcome.change {
                    case .created: "create   "
                    case .updated: "update   "
                    case .unchanged: "unchanged"
                    }
                    return "  \(word)  \(outcome.previousHandle.map { "\($0) → " } ?? "")\(outcome.handle)"
                }
            }
            return lines.joined(separator: "\n")
        }
        let downloaded = report.imagesDownloaded > 0 ? ", \(report.imagesDownloaded) downloaded" : ""
        lines.append("""
        imported into \(database):
          products   \(changes.productsCreated) created, \(changes.productsUpdated) updated, \
        \(changes.productsUnchanged) unchanged
          variants   \(changes.variantsCreated) created, \(changes.variantsUpdated) updated
          images     \(changes.imagesStored) stored (\(report.imagesCopied) copied from local files\(downloaded))
          categories \(changes.categoriesCreated) created
          skipped    \(report.skipped.count) rows
        """)
        if let duration { lines.append("  time       \(ImportProgressDisplay.seconds(duration))") }
        return lines.joined(separator: "\n")
    }
}

/// Where local images may come from: the catalog file's folder, then `--media-root` if given.
private func localMedia(_ options: Options, catalogPath: String) throws -> LocalMedia {
    var roots = [URL(fileURLWithPath: catalogPath).deletingLastPathComponent()]
    if let root = options.value("media-root") { roots.append(URL(fileURLWithPath: root)) }
    do {
        return try LocalMedia(roots: roots)
    } catch {
        throw UsageError("--media-root: \(error.description)")
    }
}

/// Which remote images are downloaded: `--fetch-images` alone → any host (public addresses
/// only); `--fetch-images=HOST,…` (or `SHOPPABLE_FETCH_IMAGES=HOST,…`) → only those hosts; neither → none.
private func remoteMedia(_ options: Options) throws -> RemoteMedia? {
    let list = options.value("fetch-images")
    guard options.has("fetch-images") || list != nil else { return nil }
    do {
        return try RemoteMedia(flag: list)
    } catch {
        throw UsageError("--fetch-images: \(error.description)")
    }
}

/// `--fetch-images-ca FILE` (or `SHOPPABLE_FETCH_IMAGES_CA`): the PEM file of the authorities
/// an image server's certificate must chain to instead of the system's; nil without it.
private func certificateAuthorities(_ options: Options) throws -> String? {
    guard let path = options.value("fetch-images-ca") else { return nil }
    guard FileManager.default.isReadableFile(atPath: path) else {
        throw UsageError("--fetch-images-ca: cannot read “\(path)” (a PEM file of certificate authorities)")
    }
    return path
}

/// What `shoppable import` shows on stderr while it works. On a terminal: a bar for the records
/// read, a line for each later step, then a bar for the products written, each overwriting the
/// last (cleared at the end). Not on a terminal (a log, a pipe, a test): one plain line per
/// step, and only for files over 1 MB, so small imports and tests print nothing but their report.
final class ImportProgressDisplay {
    private let isTerminal: Bool
    private let isShown: Bool
    private var lastPercent = -1
    private var isLineOpen = false
    /// The bar's words for the current step.
    private var step = (verb: "reading", unit: "records")

    init(isTerminal: Bool, isLarge: Bool) {
        self.isTerminal = isTerminal
        self.isShown = isTerminal || isLarge
    }

    /// A step starts.
    func start(_ phase: CatalogImportService.Phase, dryRun: Bool) {
        lastPercent = -1
        step = switch phase {
        case .writing where dryRun: ("comparing", "products")
        case .writing: ("writing", "products")
        default: ("reading", "records")
        }
        let text = switch phase {
        case .reading: "reading the file…"
        case let .checkingImages(count): "checking \(count) local images…"
        case let .downloadingImages(count): "downloading \(count) images…"
        case let .writing(products) where dryRun: "comparing \(products) products with the shop…"
        case let .writing(products): "writing \(products) products in one transaction…"
        }
        show(text)
    }

    /// How far the step is (records read, products written or compared): a bar on a terminal,
    /// nothing otherwise.
    func advance(done: Int, total: Int) {
        guard isTerminal, total > 0 else { return }
        let percent = done * 100 / total
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = done * width / total
        show("\(step.verb) [" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            + "] \(percent) % (\(done)/\(total) \(step.unit))")
    }

    /// Clears the terminal line (the report follows on stdout).
    func finish() {
        guard isTerminal, isLineOpen else { return }
        write("\r\u{1B}[K")
        isLineOpen = false
    }

    /// `3.2 s`, `0.04 s`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds >= 10_000 ? "\(milliseconds / 1000) s"
            : "\(milliseconds / 1000).\(String(milliseconds % 1000 / 10 + 100).dropFirst()) s"
    }

    private func show(_ text: String) {
        guard isShown else { return }
        if isTerminal {
            write("\r\u{1B}[K" + text)
            isLineOpen = true
        } else {
            write(text + "\n")
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
