import Foundation
import ShopImport
import ShopService
import ShopStore
import ShopStoreSQLite

/// `shoppable export --format FORMAT FILE`: writes the whole catalog through
/// `CatalogExportService` to FILE, or to standard output for `-`.
enum ExportCommand {
    static func run(_ options: Options) throws {
        guard options.arguments.count == 2 else { throw UsageError("export needs exactly one FILE (or - for standard output)") }
        let path = options.arguments[1]
        let formats = CatalogWriter.formats.map(\.rawValue).joined(separator: "|")
        guard let name = options.value("format") else { throw UsageError("export needs --format \(formats)") }
        guard let format = CatalogFormat(rawValue: name), CatalogWriter.formats.contains(format) else {
            throw UsageError("--format must be one of \(formats)")
        }
        let currency = try options.currency()
        guard let database = try openExistingDatabase(options) else {
            throw UsageError("there is no database at \(try options.database)")
        }
        defer { database.close() }
        let catalog = database.catalog(currency: currency)
        let data = try CatalogExportService(catalog: catalog, currency: currency).export(as: format)
        if path == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            guard FileManager.default.createFile(atPath: path, contents: data) else {
                throw UsageError("cannot write “\(path)”")
            }
            print("exported \(try catalog.productCount()) products to \(path) (\(format.rawValue))")
        }
    }
}
