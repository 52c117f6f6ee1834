public import Foundation
public import ShopCore
public import ShopImport
public import ShopStore

/// Imports a merchant's catalog file into the shop: read it whole → check every local image →
/// copy those images into the media library → upsert every product in one transaction.
///
/// All or nothing for the catalog: a bad record or a refused image throws an `ImportError` naming
/// the file, line and column before anything is written. Images are copied before the upsert;
/// they are named by their content, so a copy left by an import that then fails is harmless (the
/// next import finds it and does not copy it again), and the catalog never points at an image
/// that is not there.
///
/// The CLI (`shoppable import`) calls it with a file's bytes; the API and back office will call
/// it with an upload's.
///
/// ```swift
/// let service = CatalogImportService(catalog: .sqlite(database, currency: .usd),
///                                    media: .directory(mediaFolder), currency: .usd)
/// let report = try service.importCatalog(data, fileName: "products.csv",
///                                        options: .init(localMedia: try LocalMedia(roots: [catalogFolder])))
/// print(report.changes?.productsCreated ?? 0, report.imagesCopied)
/// ```
public struct CatalogImportService: Sendable {
    /// The catalog the products are upserted into.
    public var catalog: CatalogStore
    /// Where local images are copied.
    public var media: MediaLibrary
    /// Checks each local image by decoding it and makes its renditions (`ImageRenditions`);
    /// nil copies files as they are, with no size recorded.
    public var images: ImageProcessor?
    /// The shop currency: every price in a file is read as an amount in it (no conversion).
    public var currency: Currency
    /// The current time, for scheduled sale prices (WooCommerce).
    public var now: @Sendable () -> Date

    /// Creates the service from the clients it needs.
    /// - Parameters:
    ///   - catalog: the catalog store to upsert into.
    ///   - media: where local images are copied.
    ///   - currency: the shop currency.
    ///   - images: the image library that checks local images and makes their renditions.
    ///   - now: the clock.
    public init(catalog: CatalogStore, media: MediaLibrary, currency: Currency, images: ImageProcessor? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.catalog = catalog
        self.media = media
        self.images = images
        self.currency = currency
        self.now = now
    }

    /// A step of an import, announced through `Options.phase` as it starts.
    public enum Phase: Equatable, Sendable {
        /// Reading and checking the file's records (then `Options.progress` reports records).
        case reading
        /// Checking the local images the file names (`count` of them, distinct or not).
        case checkingImages(count: Int)
        /// Writing `products` products in one transaction (or previewing it, for a dry run).
        case writing(products: Int)
    }

    /// How one import runs.
    public struct Options {
        /// Read and check everything (local images included) and ask the catalog what the import
        /// would do (`CatalogStore.previewUpsert`), then stop: nothing is copied or written.
        public var dryRun: Bool
        /// The folders local images may be read from (the catalog file's folder, a media root);
        /// `.none` refuses every local image (an upload has no folder).
        public var localMedia: LocalMedia
        /// Called with (records done, records total) while the file is read.
        public var progress: ((_ done: Int, _ total: Int) -> Void)?
        /// Called as each step starts, for a progress display.
        public var phase: ((_ phase: Phase) -> Void)?
        /// Merge a SKU repeated in the file into its first variant instead of refusing the file
        /// (`CatalogImporter.mergesDuplicateSKUs`).
        public var mergesDuplicateSKUs: Bool

        /// Creates options.
        /// - Parameters:
        ///   - dryRun: check only, write nothing.
        ///   - localMedia: where local images may be read from.
        ///   - progress: reading progress.
        ///   - mergesDuplicateSKUs: merge repeated SKUs (with a warning) instead of refusing the file.
        ///   - phase: called as each step starts.
        public init(dryRun: Bool = false, localMedia: LocalMedia = .none,
                    progress: ((_ done: Int, _ total: Int) -> Void)? = nil, mergesDuplicateSKUs: Bool = false,
                    phase: ((_ phase: Phase) -> Void)? = nil) {
            self.mergesDuplicateSKUs = mergesDuplicateSKUs
            self.phase = phase
            self.dryRun = dryRun
            self.localMedia = localMedia
            self.progress = progress
        }
    }

    /// Imports a catalog file.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - fileName: the file's name, used in messages only (e.g. `"products.csv"`).
    ///   - format: the file's format, or nil to detect it from the content.
    ///   - options: dry run, local image folders, progress.
    /// - Returns: what was read and, unless it was a dry run, what changed.
    /// - Throws: `ImportError` naming the file, line and column for a bad record, a refused
    ///   image or a draft the store refuses — then the catalog is unchanged; the media library's
    ///   or the store's own error when writing fails (the catalog is unchanged then too).
    public func importCatalog(_ data: Data, fileName: String, format: CatalogFormat? = nil,
                              options: Options = Options()) throws -> CatalogImportReport {
        let importer = CatalogImporter(currency: currency, now: now(), mergesDuplicateSKUs: options.mergesDuplicateSKUs)
        options.phase?(.reading)
        let result = try importer.read(data, fileName: fileName, format: format, progress: options.progress)
        let localImages = result.products.reduce(0) { count, product in
            count + product.images.count { LocalMedia.isLocal($0.url) }
        }
        if localImages > 0 { options.phase?(.checkingImages(count: localImages)) }
        let localImageCount = try options.localMedia.check(result, file: fileName)
        var report = CatalogImportReport(fileName: fileName, result: result, localImageCount: localImageCount)

        let copies = try copyLocalImages(of: result, from: options.localMedia, fileName: fileName,
                                         store: !options.dryRun)
        report.imagesCopied = copies.written
        let products = result.products.map { Self.pointingAtCopies($0, copies.paths) }
        options.phase?(.writing(products: products.count))
        do {
            if options.dryRun {
                report.preview = try catalog.previewUpsert(products)
            } else {
                report.changes = try catalog.upsert(products)
            }
        } catch let error as CatalogStoreError {
            throw ImportError(file: fileName, line: nil, message: error.errorDescription ?? "\(error)")
        }
        return report
    }

    /// Copies each distinct local image of `result` into the media library once (a dry run,
    /// `store` false, only names the copies, so its preview compares the paths an import writes).
    ///
    /// With an `ImageProcessor`, each image is first opened by the image library (its header: a
    /// file it cannot read, or one over the pixel limit, is refused at the image's place in the
    /// catalog file) and, unless a dry run, its renditions are made — decoding every pixel, so a
    /// broken file is refused too — before the original is stored.
    /// - Returns: each local image URL's copy (path and size), and how many originals were new.
    private func copyLocalImages(of result: ImportResult, from localMedia: LocalMedia, fileName: String,
                                 store: Bool) throws -> (paths: [String: ProductImage], written: Int) {
        var paths: [String: ProductImage] = [:]
        var written = 0
        for product in result.products {
            // An export names stored images by their `/media/` path: the size comes back from the
            // stored file (its renditions were made when it was first imported).
            if let images {
                for image in product.images where image.url.hasPrefix(ImageRenditions.mediaPrefix) && paths[image.url] == nil {
                    guard let bytes = media.read(String(image.url.dropFirst(ImageRenditions.mediaPrefix.count))),
                          let info = try? images.inspect(bytes) else { continue }
                    paths[image.url] = ProductImage(url: image.url, width: info.width, height: info.height,
                                                    hasAlpha: info.hasAlpha)
                }
            }
            for image in product.images where LocalMedia.isLocal(image.url) && paths[image.url] == nil {
                // Read again, not kept from the check: a catalog may name thousands of images.
                let file = try localMedia.load(image.url, in: result, file: fileName, line: product.sourceLine)
                let name = MediaLibrary.fileName(for: file.bytes, extension: file.format.fileExtension)
                var copy = ProductImage(url: MediaLibrary.url(of: name))
                if let images {
                    let location = result.imageLocations[image.url] ?? ImportLocation(line: product.sourceLine, column: "image")
                    do {
                        let info = try images.inspect(file.bytes)
                        (copy.width, copy.height, copy.hasAlpha) = (info.width, info.height, info.hasAlpha)
                        if store { try makeRenditions(of: file.bytes, named: name, info, images) }
                    } catch {
                        throw ImportError(file: fileName, at: location, message: "image “\(image.url)”: \(error)")
                    }
                }
                if store, try media.store(name, file.bytes) { written += 1 }
                paths[image.url] = copy
            }
        }
        return (paths, written)
    }

    /// Stores the renditions of the image stored as `name` that are not stored yet (each is made
    /// once: the names follow the original's content).
    /// - Returns: how many files were written.
    @discardableResult
    private func makeRenditions(of bytes: [UInt8], named name: String, _ info: ImageProcessor.Info,
                                _ images: ImageProcessor) throws -> Int {
        let formats: [ImageRenditions.Format] = [.webp, ImageRenditions.fallbackFormat(hasAlpha: info.hasAlpha)]
        var written = 0
        for width in ImageRenditions.widths(forOriginalWidth: info.width) {
            let names = formats.map { ImageRenditions.name(of: name, width: width, format: $0) }
            guard !names.allSatisfy(media.contains) else { continue }
            for (renditionName, rendition) in zip(names, try images.render(bytes, width, formats))
            where try media.store(renditionName, rendition) {
                written += 1
            }
        }
        return written
    }

    /// `product` with its local images pointing at their copies (with their sizes), and
    /// protocol-relative URLs (`//cdn…`) made `https:`.
    private static func pointingAtCopies(_ product: ProductDraft, _ paths: [String: ProductImage]) -> ProductDraft {
        var product = product
        product.images = product.images.map { image in
            if image.url.hasPrefix("//") { return ProductImage(url: "https:" + image.url, altText: image.altText) }
            guard var copy = paths[image.url] else { return image }
            copy.altText = image.altText
            return copy
        }
        return product
    }
}
