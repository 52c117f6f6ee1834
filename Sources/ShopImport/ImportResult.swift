public import ShopCore

/// What `CatalogImporter.read` found in a file: the product drafts to upsert, the records
/// skipped on purpose, and warnings for the merchant.
public struct ImportResult: Hashable, Sendable {
    /// The format the file was read as (detected or given).
    public var format: CatalogFormat
    /// The products, in file order, each with at least one variant and a handle unique in
    /// this result.
    public var products: [ProductDraft]
    /// Records that are not importable by design (see `SkippedRow`).
    public var skipped: [SkippedRow]
    /// Things imported with a caveat.
    public var warnings: [ImportWarning]
    /// Where each image URL (as in `ProductImage.url`) first appears in the file, so a problem
    /// found later with the image (`LocalMedia`) names the line and column.
    public var imageLocations: [String: ImportLocation]

    /// Creates a result.
    public init(format: CatalogFormat, products: [ProductDraft], skipped: [SkippedRow] = [],
                warnings: [ImportWarning] = [], imageLocations: [String: ImportLocation] = [:]) {
        self.format = format
        self.products = products
        self.skipped = skipped
        self.warnings = warnings
        self.imageLocations = imageLocations
    }

    /// Number of variants over all products.
    public var variantCount: Int { products.reduce(0) { $0 + $1.variants.count } }
    /// Number of images over all products.
    public var imageCount: Int { products.reduce(0) { $0 + $1.images.count } }
}
