import Foundation
import ShopCore
import ShopWeb
import ShopImport
import ShopStore
import ShopStoreSQLite

/// `shoppable import FILE`: read a catalog file, check it whole, then write it in one transaction.
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
        let importer = CatalogImporter(currency: try options.currency())
        let fileName = (path as NSString).lastPathComponent
        let showProgress = data.count > 1_000_000 && isatty(STDERR_FILENO) == 1
        var result = try importer.read(data, fileName: fileName, format: format) { done, total in
            if showProgress { FileHandle.standardError.write(Data("\rreading \(done)/\(total) records…".utf8)) }
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print("\(fileName): \(result.format.rawValue), \(result.products.count) products, \(result.variantCount) variants, \(result.imageCount) images")
        if result.products.isEmpty { print("  warning: the file has no products (only a header, or an empty list)") }
        for warning in result.warnings { print("  warning: \(warning.description)") }
        for skipped in result.skipped { print("  skipped: \(skipped.description)") }

        let baseFolder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let localImages = LocalImages(mediaDirectory: try mediaDirectory(options), baseFolder: baseFolder, fileName: fileName)
        try result.products.forEach(localImages.check)
        if options.has("dry-run") {
            print("dry run: the file is valid; nothing written")
            return
        }
        result.products = try result.products.map(localImages.rewrite)

        let database = try openDatabase(options, poolSize: 1)
        defer { database.close() }
        let summary: CatalogUpsertResult
        do {
            summary = try CatalogStore.sqlite(database, currency: try options.currency()).upsert(result.products)
        } catch let error as CatalogStoreError {
            throw ImportError(file: fileName, line: nil, message: error.errorDescription ?? "\(error)")
        }
        print("""
        imported into \(try options.database):
          products   \(summary.productsCreated) created, \(summary.productsUpdated) updated
          variants   \(summary.variantsCreated) created, \(summary.variantsUpdated) updated
          images     \(summary.imagesStored) stored (\(localImages.copied) copied from local files)
          categories \(summary.categoriesCreated) created
          skipped    \(result.skipped.count) rows
        """)
    }
}

/// Images given as local file paths (relative to the catalog file) are copied into the media
/// folder under a content-hashed name and served from `/media/…`.
final class LocalImages {
    let mediaDirectory: URL
    let baseFolder: URL
    let fileName: String
    private(set) var copied = 0

    init(mediaDirectory: URL, baseFolder: URL, fileName: String) {
        self.mediaDirectory = mediaDirectory
        self.baseFolder = baseFolder
        self.fileName = fileName
    }

    static func isRemoteOrSitePath(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("//")
            || url.hasPrefix("/static/") || url.hasPrefix("/media/") || lower.hasPrefix("data:")
    }

    /// Where a local image is: `file:///abs`, `/abs`, or a path relative to the catalog file.
    func source(of url: String) -> URL {
        let path = url.lowercased().hasPrefix("file://") ? String(url.dropFirst(7)) : url
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseFolder.appendingPathComponent(path)
    }

    /// Throws when a local image of `product` does not exist (checked before anything is written,
    /// and by `--dry-run`).
    func check(_ product: ProductDraft) throws {
        for image in product.images where !LocalImages.isRemoteOrSitePath(image.url) {
            let source = source(of: image.url)
            guard FileManager.default.isReadableFile(atPath: source.path) else {
                throw ImportError(file: fileName, line: product.sourceLine, column: "image",
                                  message: "image file “\(image.url)” not found (looked at \(source.path))")
            }
        }
    }

    /// Copies the product's local images into the media folder and points the draft at them;
    /// protocol-relative URLs (`//cdn…`) become `https:`.
    func rewrite(_ product: ProductDraft) throws -> ProductDraft {
        var product = product
        product.images = try product.images.map { image in
            if image.url.hasPrefix("//") { return ProductImage(url: "https:" + image.url, altText: image.altText) }
            guard !LocalImages.isRemoteOrSitePath(image.url) else { return image }
            let source = source(of: image.url)
            guard let data = FileManager.default.contents(atPath: source.path) else {
                throw ImportError(file: fileName, line: product.sourceLine, column: "image",
                                  message: "image file “\(image.url)” not found (looked at \(source.path))")
            }
            let ext = source.pathExtension.lowercased().filter { $0.isLetter || $0.isNumber }
            let name = Assets.contentHash(of: [UInt8](data)) + (ext.isEmpty ? "" : ".\(ext)")
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
            let target = mediaDirectory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: target.path) {
                try data.write(to: target, options: .atomic)
                copied += 1
            }
            return ProductImage(url: "/media/\(name)", altText: image.altText)
        }
        return product
    }
}
