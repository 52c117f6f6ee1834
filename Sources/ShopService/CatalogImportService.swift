public import Foundation
public import ShopCore
import Synchronization
public import ShopImport
public import ShopStore

/// Imports a merchant's catalog file into the shop: read it whole → check every local image →
/// download the remote images the operator allows (`Options.remoteMedia`) → copy those images
/// into the media library → upsert every product in one transaction.
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
    /// Downloads remote images when `Options.remoteMedia` asks for it; nil refuses such an import.
    public var downloader: ImageDownloader?

    /// Creates the service from the clients it needs.
    /// - Parameters:
    ///   - catalog: the catalog store to upsert into.
    ///   - media: where local images are copied.
    ///   - currency: the shop currency.
    ///   - images: the image library that checks local images and makes their renditions.
    ///   - now: the clock.
    ///   - downloader: how remote images are downloaded (`--fetch-images`).
    public init(catalog: CatalogStore, media: MediaLibrary, currency: Currency, images: ImageProcessor? = nil,
                now: @escaping @Sendable () -> Date = { Date() }, downloader: ImageDownloader? = nil) {
        self.downloader = downloader
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
        /// Downloading the remote images the operator allows (`count` distinct URLs).
        case downloadingImages(count: Int)
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
        /// Called with (done, total) within the current step: records read while the file is
        /// read; products written (or compared, for a dry run) while writing.
        public var progress: ((_ done: Int, _ total: Int) -> Void)?
        /// Called as each step starts, for a progress display.
        public var phase: ((_ phase: Phase) -> Void)?
        /// Merge a SKU repeated in the file into its first variant instead of refusing the file
        /// (`CatalogImporter.mergesDuplicateSKUs`).
        public var mergesDuplicateSKUs: Bool
        /// Which remote (`http(s)://`) images are downloaded and stored like local files
        /// (`--fetch-images`); nil keeps every remote URL as it is. A dry run downloads and checks
        /// them too, and stores nothing.
        public var remoteMedia: RemoteMedia?
        /// Who the audit log names for each product written: the operator at the command line,
        /// a staff member importing in the back office, or the shop seeding its demo catalog.
        public var actor: AuditActor
        /// Asked before each step and as each product is written: `true` stops the import,
        /// which then throws `CancellationError` and writes nothing (a server stopping).
        public var shouldStop: (() -> Bool)?

        /// Creates options.
        /// - Parameters:
        ///   - dryRun: check only, write nothing.
        ///   - localMedia: where local images may be read from.
        ///   - progress: how far the reading and the writing are.
        ///   - mergesDuplicateSKUs: merge repeated SKUs (with a warning) instead of refusing the file.
        ///   - phase: called as each step starts.
        ///   - remoteMedia: which remote images are downloaded; nil keeps them remote.
        ///   - actor: who the audit log names.
        public init(dryRun: Bool = false, localMedia: LocalMedia = .none,
                    progress: ((_ done: Int, _ total: Int) -> Void)? = nil, mergesDuplicateSKUs: Bool = false,
                    phase: ((_ phase: Phase) -> Void)? = nil, remoteMedia: RemoteMedia? = nil, actor: AuditActor = .cli) {
            self.actor = actor
            self.remoteMedia = remoteMedia
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
    ///   or the store's own error when writing fails (the catalog is unchanged then too);
    ///   `CancellationError` when `Options.shouldStop` said so (nothing written either).
    public func importCatalog(_ data: Data, fileName: String, format: CatalogFormat? = nil,
                              options: Options = Options()) throws -> CatalogImportReport {
        let importer = CatalogImporter(currency: currency, now: now(), mergesDuplicateSKUs: options.mergesDuplicateSKUs)
        func stopIfAsked() throws {
            if options.shouldStop?() == true { throw CancellationError() }
        }
        try stopIfAsked()
        if let stored = try catalog.storedCurrency(), stored != currency {
            throw ImportError(file: fileName, line: nil,
                              problem: .catalogInOtherCurrency(stored: stored.code, importing: currency.code))
        }
        options.phase?(.reading)
        let result = try importer.read(data, fileName: fileName, format: format, progress: options.progress)
        let localImages = result.products.reduce(0) { count, product in
            count + product.images.count { LocalMedia.isLocal($0.url) }
        }
        if localImages > 0 { options.phase?(.checkingImages(count: localImages)) }
        let localImageCount = try options.localMedia.check(result, file: fileName)
        var report = CatalogImportReport(fileName: fileName, result: result, localImageCount: localImageCount)

        // Downloads happen here, before the write transaction: no lock is held while fetching.
        let downloads = try downloadRemoteImages(of: result, rule: options.remoteMedia, fileName: fileName,
                                                 store: !options.dryRun, phase: options.phase)
        report.imagesDownloaded = downloads.paths.count
        let copies = try copyLocalImages(of: result, from: options.localMedia, fileName: fileName,
                                         store: !options.dryRun)
        report.imagesCopied = copies.written
        let paths = copies.paths.merging(downloads.paths) { local, _ in local }
        let products = result.products.map { Self.pointingAtCopies($0, paths) }
        try stopIfAsked()
        options.phase?(.writing(products: products.count))
        let written: UpsertProgress = { passed in
            try stopIfAsked()
            options.progress?(passed, products.count)
        }
        do {
            if options.dryRun {
                report.preview = try catalog.previewUpsert(products, progress: written)
            } else {
                report.changes = try catalog.upsert(products, by: options.actor, now: now(), progress: written)
            }
        } catch let error as CatalogStoreError {
            throw ImportError(file: fileName, refusal: error)
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
                let location = result.imageLocations[image.url] ?? ImportLocation(line: product.sourceLine, column: "image")
                let copy = try storeImage(file.bytes, format: file.format, url: image.url, at: location,
                                          fileName: fileName, store: store)
                if copy.wrote { written += 1 }
                paths[image.url] = copy.image
            }
        }
        return (paths, written)
    }

    /// Images downloaded at once (`--fetch-images`): a few transfers overlap their waiting, and
    /// no more than this many bodies (each at most `RemoteMedia.maximumBytes`) are held at once.
    static let parallelDownloads = 4

    /// Downloads each distinct remote image of `result` that `rule` allows, once, in file order
    /// (a few at a time), and takes each through `storeImage` as if it were a local file: checked
    /// by content, opened by the image library, renditions made, stored under its content hash
    /// (a dry run, `store` false, downloads and checks but stores nothing).
    /// - Returns: each downloaded URL's copy (path and size), and how many originals were new.
    /// - Throws: `ImportError` at the image's place in the catalog file, naming the URL and the
    ///   reason (HTTP status, too large, not an image, host or address refused, …).
    private func downloadRemoteImages(of result: ImportResult, rule: RemoteMedia?, fileName: String, store: Bool,
                                      phase: ((Phase) -> Void)?) throws -> (paths: [String: ProductImage], written: Int) {
        guard let rule else { return ([:], 0) }
        var seen: Set<String> = []
        var wanted: [(url: String, location: ImportLocation)] = []
        for product in result.products {
            for image in product.images where rule.fetches(image.url) && seen.insert(image.url).inserted {
                wanted.append((image.url, result.imageLocations[image.url] ?? ImportLocation(line: product.sourceLine, column: "image")))
            }
        }
        guard !wanted.isEmpty else { return ([:], 0) }
        guard let downloader else {
            throw ImportError(file: fileName, line: nil, problem: .noImageDownloader)
        }
        phase?(.downloadingImages(count: wanted.count))
        var paths: [String: ProductImage] = [:]
        var written = 0
        for start in stride(from: 0, to: wanted.count, by: Self.parallelDownloads) {
            let batch = Array(wanted[start..<min(start + Self.parallelDownloads, wanted.count)])
            let urls = batch.map { RemoteMedia.downloadURL(of: $0.url) }
            let bodies = DownloadSlots(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                bodies.put(index, Result { try downloader.download(urls[index], rule) })
            }
            for (item, body) in zip(batch, bodies.all) {
                let bytes: [UInt8]
                do {
                    bytes = try body.get()
                } catch {
                    throw ImportError(file: fileName, at: item.location, problem: .imageRefused(url: item.url, reason: "\(error)"))
                }
                guard let format = ImageFormat(sniffing: bytes) else {
                    throw ImportError(file: fileName, at: item.location, problem: .localImage(.notAnImage(item.url)))
                }
                let copy = try storeImage(bytes, format: format, url: item.url, at: item.location, fileName: fileName, store: store)
                if copy.wrote { written += 1 }
                paths[item.url] = copy.image
            }
        }
        return (paths, written)
    }

    /// The one path every imported image takes, local file or download: named by its content;
    /// with an `ImageProcessor`, its header read (pixel limit) and, unless a dry run, its
    /// renditions made (decoding every pixel) before the original is stored.
    /// - Returns: the image as the draft links it (`/media/…`, with its size), and whether the
    ///   original was newly written.
    /// - Throws: `ImportError` at `location` when the image library refuses it.
    private func storeImage(_ bytes: [UInt8], format: ImageFormat, url: String, at location: ImportLocation,
                            fileName: String, store: Bool) throws -> (image: ProductImage, wrote: Bool) {
        let name = MediaLibrary.fileName(for: bytes, extension: format.fileExtension)
        var copy = ProductImage(url: MediaLibrary.url(of: name))
        if let images {
            do {
                let info = try images.inspect(bytes)
                (copy.width, copy.height, copy.hasAlpha) = (info.width, info.height, info.hasAlpha)
                if store { try makeRenditions(of: bytes, named: name, info, images) }
            } catch {
                throw ImportError(file: fileName, at: location, problem: .imageRefused(url: url, reason: "\(error)"))
            }
        }
        let wrote = store ? try media.store(name, bytes) : false
        return (copy, wrote)
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
            guard var copy = paths[image.url] else {
                if image.url.hasPrefix("//") { return ProductImage(url: "https:" + image.url, altText: image.altText) }
                return image
            }
            copy.altText = image.altText
            return copy
        }
        return product
    }
}

/// The bodies of one batch of parallel downloads, each put by its own thread at its index.
private final class DownloadSlots: Sendable {
    private let slots: Mutex<[Result<[UInt8], any Error>]>

    init(count: Int) {
        slots = Mutex(Array(repeating: .success([]), count: count))
    }

    func put(_ index: Int, _ body: Result<[UInt8], any Error>) {
        slots.withLock { $0[index] = body }
    }

    var all: [Result<[UInt8], any Error>] { slots.withLock { $0 } }
}
