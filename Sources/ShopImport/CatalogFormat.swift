/// The catalog file formats `CatalogImporter` reads. The raw value is the CLI's `--format` name.
public enum CatalogFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Fake Store API JSON (fakestoreapi.com `/products`): an array of
    /// `{id, title, price, description, category, image, rating: {rate, count}}`, prices as JSON
    /// numbers in major units.
    case fakeStore = "fakestore"
    /// The MVC cart app's bundled catalog: `{"products": [{"id", "name", "price": {"value",
    /// "currency"}, "info": {…}, "type", "imageUrl"}]}`.
    case seedJSON = "seed-json"
    /// Shoppable's own catalog format, version 1 (`"format": "shoppable-catalog"`); see
    /// `docs/` or the ShopImport README section of the design brief.
    case shoppableJSON = "shoppable-json"
    /// Shopify's product CSV, with either the 2023 template headers (`Handle`, `Variant Price`, …)
    /// or the 2024 renamed ones (`URL handle`, `Price`, …).
    case shopifyCSV = "shopify-csv"
    /// WooCommerce's product CSV (the built-in exporter / sample data columns).
    case wooCommerceCSV = "woocommerce-csv"

    /// The `--format` name, e.g. `"shopify-csv"`.
    public var description: String { rawValue }
}
