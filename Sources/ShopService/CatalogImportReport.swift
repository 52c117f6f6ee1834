public import ShopImport
public import ShopStore

/// What `CatalogImportService.importCatalog` read from a file and, unless it was a dry run, what
/// it changed — for the CLI to print and the API to send.
public struct CatalogImportReport: Hashable, Sendable {
    /// The file's name, as given.
    public var fileName: String
    /// The format the file was read as (detected or given).
    public var format: CatalogFormat
    /// Products read.
    public var productCount: Int
    /// Variants read, over all products.
    public var variantCount: Int
    /// Images named, over all products.
    public var imageCount: Int
    /// Things imported with a caveat (a SKU Excel turned into scientific notation, a handle
    /// renamed …).
    public var warnings: [ImportWarning]
    /// Records that are valid but not importable by design (a grouped product, a gift card …).
    public var skipped: [SkippedRow]
    /// Distinct local image files the catalog names (each one checked).
    public var localImageCount: Int
    /// Local images written to the media library; 0 for a dry run and for images stored before.
    public var imagesCopied: Int
    /// Distinct remote images downloaded (`--fetch-images`), each checked and — unless a dry
    /// run — stored in the media library like a local file; 0 without the option.
    public var imagesDownloaded = 0
    /// What the upsert created and updated; nil for a dry run (nothing written).
    public var changes: CatalogUpsertResult?
    /// A dry run's answer: what the upsert would create, update and leave alone, per product
    /// (`CatalogStore.previewUpsert`); nil for a real import.
    public var preview: CatalogUpsertResult?

    /// Creates a report of a file read as `result`, before anything is written.
    public init(fileName: String, result: ImportResult, localImageCount: Int, imagesCopied: Int = 0,
                changes: CatalogUpsertResult? = nil) {
        self.fileName = fileName
        format = result.format
        productCount = result.products.count
        variantCount = result.variantCount
        imageCount = result.imageCount
        warnings = result.warnings
        skipped = result.skipped
        self.localImageCount = localImageCount
        self.imagesCopied = imagesCopied
        self.changes = changes
    }

    /// `true` when nothing was written (a dry run).
    public var isDryRun: Bool { changes == nil }
}
