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

        let localImages = LocalImages(media: try localMedia(options, catalogPath: path),
                                      mediaDirectory: try mediaDirectory(options), fileName: fileName)
        try localImages.media.check(result, file: fileName)
        if options.has("dry-run") {
            print("dry run: the file is valid; nothing written")
            return
        }
        result.products = try result.products.map { try localImages.rewrite($0, of: result) }

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

/// Copies the local images of drafts (read and checked by `LocalMedia`) into the media folder
/// as `<content hash>.<format extension>`, served from `/media/…`.
final class LocalImages {
    let media: LocalMedia
    let mediaDirectory: URL
    let fileName: String
    private(set) var copied = 0

    init(media: LocalMedia, mediaDirectory: URL, fileName: String) {
        self.media = media
        self.mediaDirectory = mediaDirectory
        self.fileName = fileName
    }

    /// Copies the product's local images into the media folder and points the draft at them;
    /// protocol-relative URLs (`//cdn…`) become `https:`.
    func rewrite(_ product: ProductDraft, of result: ImportResult) throws -> ProductDraft {
        var product = product
        let line = product.sourceLine
        product.images = try product.images.map { image in
            if image.url.hasPrefix("//") { return ProductImage(url: "https:" + image.url, altText: image.altText) }
            guard LocalMedia.isLocal(image.url) else { return image }
            let file = try media.load(image.url, in: result, file: fileName, line: line)
            let name = Assets.contentHash(of: file.bytes) + "." + file.format.fileExtension
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
            let target = mediaDirectory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: target.path) {
                try Data(file.bytes).write(to: target, options: .atomic)
                copied += 1
            }
            return ProductImage(url: "/media/\(name)", altText: image.altText)
        }
        return product
    }
}
