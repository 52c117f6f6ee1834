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
///
/// A Shopify CSV input is also read in two parts at once (`twoPartMinimumBytes: 0`, as a large
/// file is) and in one pass: any difference — products, lines, warnings, skipped rows, the error —
/// stops the run as a crash (issue #13, point 6).
public func fuzzCatalog(_ format: CatalogFormat?) -> Never {
    fuzz { bytes in
        let data = Data(bytes)
        for currency in fuzzCurrencies {
            let importer = CatalogImporter(currency: currency, now: fuzzNow, progressInterval: 1)
            _ = try? importer.read(data, fileName: "fuzz", format: format) { _, _ in }
        }
        if format == .shopifyCSV {
            let read = { (minimum: Int) -> Result<ImportResult, ImportError> in
                let importer = CatalogImporter(currency: .usd, now: fuzzNow, twoPartMinimumBytes: minimum)
                return Result { () throws(ImportError) in try importer.read(data, fileName: "fuzz", format: .shopifyCSV) }
            }
            let onePass = read(.max), twoParts = read(0)
            if onePass != twoParts {
                fatalError("two-part read differs from one pass:\n\(twoParts)\n---\n\(onePass)")
            }
        }
    }
}
