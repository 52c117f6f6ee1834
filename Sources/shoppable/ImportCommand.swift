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
        let databasePath = try options.database
        let localMedia = try localMedia(options, catalogPath: path)
        let media = MediaLibrary.directory(try mediaDirectory(options))
        // A dry run writes nothing, not even a new database file: it previews against the shop's
        // database when there is one (a rolled-back transaction), else against an empty one.
        let database = dryRun
            ? try openExistingDatabase(options) ?? SQLiteDatabase.open(path: ":memory:", poolSize: 1)
            : try openDatabase(options, poolSize: 1)
        defer { database.close() }
        let service = CatalogImportService(catalog: .sqlite(database, currency: currency), media: media, currency: currency,
                                           images: .vips())

        let fileName = (path as NSString).lastPathComponent
        let showProgress = data.count > 1_000_000 && isatty(STDERR_FILENO) == 1
        let report = try service.importCatalog(data, fileName: fileName, format: format, options: .init(
            dryRun: dryRun, localMedia: localMedia,
            progress: { done, total in
                if showProgress { FileHandle.standardError.write(Data("\rreading \(done)/\(total) records…".utf8)) }
            }, mergesDuplicateSKUs: options.has("merge-duplicate-skus")))
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print(describe(report, database: databasePath))
    }

    /// The report as the merchant reads it: what the file holds, its caveats, what changed.
    static func describe(_ report: CatalogImportReport, database: String) -> String {
        var lines = ["\(report.fileName): \(report.format.rawValue), \(report.productCount) products, "
            + "\(report.variantCount) variants, \(report.imageCount) images"]
        if report.productCount == 0 { lines.append("  warning: the file has no products (only a header, or an empty list)") }
        lines += report.warnings.map { "  warning: \($0.description)" }
        lines += report.skipped.map { "  skipped: \($0.description)" }
        guard let changes = report.changes else {
            lines.append("dry run: the file is valid; nothing written")
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
                    return "  \(word)  \(outcome.handle)"
                }
            }
            return lines.joined(separator: "\n")
        }
        lines.append("""
        imported into \(database):
          products   \(changes.productsCreated) created, \(changes.productsUpdated) updated, \
        \(changes.productsUnchanged) unchanged
          variants   \(changes.variantsCreated) created, \(changes.variantsUpdated) updated
          images     \(changes.imagesStored) stored (\(report.imagesCopied) copied from local files)
          categories \(changes.categoriesCreated) created
          skipped    \(report.skipped.count) rows
        """)
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
