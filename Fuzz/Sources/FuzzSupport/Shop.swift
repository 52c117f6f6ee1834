public import Foundation
public import ShopCore
public import ShopImport

/// Shop currencies every file-reading target reads each input in: 2, 0 and 3 minor-unit digits,
/// so amount parsing meets every scale (and its overflow limits).
public let fuzzCurrencies: [Currency] = [.usd, .jpy, try! Currency(code: "KWD")]

/// A fixed "now" (2026-05-28), so a crash found on one day reproduces on another.
public let fuzzNow = Date(timeIntervalSince1970: 1_780_000_000)

/// Runs libFuzzer on `CatalogImporter.read` with `format` (`nil`: detect it first, as
/// `shoppable import` does without `--format`), once per currency in ``fuzzCurrencies``.
public func fuzzCatalog(_ format: CatalogFormat?) -> Never {
    fuzz { bytes in
        let data = Data(bytes)
        for currency in fuzzCurrencies {
            let importer = CatalogImporter(currency: currency, now: fuzzNow, progressInterval: 1)
            _ = try? importer.read(data, fileName: "fuzz", format: format) { _, _ in }
        }
    }
}
