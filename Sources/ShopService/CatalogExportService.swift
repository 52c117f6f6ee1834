public import Foundation
public import ShopCore
public import ShopImport
public import ShopStore

/// Writes the whole catalog — every product, published or not, by id — as a catalog file
/// (`CatalogWriter`) that `CatalogImportService` reads back.
///
/// ```swift
/// let service = CatalogExportService(catalog: .sqlite(database, currency: .usd), currency: .usd)
/// let csv = try service.export(as: .shopifyCSV)
/// ```
public struct CatalogExportService: Sendable {
    /// The catalog read.
    public var catalog: CatalogStore
    /// The shop currency.
    public var currency: Currency

    /// Creates the service from the clients it needs.
    /// - Parameters:
    ///   - catalog: the catalog store to read.
    ///   - currency: the shop currency.
    public init(catalog: CatalogStore, currency: Currency) {
        self.catalog = catalog
        self.currency = currency
    }

    /// The catalog as a file.
    /// - Parameter format: one of `CatalogWriter.formats`.
    /// - Returns: the file's bytes.
    /// - Throws: `CatalogExportError` when the catalog cannot be written in `format`; the store's
    ///   error when reading fails.
    public func export(as format: CatalogFormat) throws -> Data {
        let products = try catalog.allProducts().map { ProductDraft($0.product, categoryName: $0.categoryName) }
        return try CatalogWriter(currency: currency).write(products, as: format)
    }
}
