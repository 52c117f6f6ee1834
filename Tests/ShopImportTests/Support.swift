import Foundation
import ShopCore
import ShopImport
import Testing

/// Test fixtures: hand-written catalog files under `Fixtures/`.
enum Fixture {
    /// 2026-01-01T00:00:00Z: "now" for scheduled sale prices.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
                               "missing fixture \(name)")
        return try Data(contentsOf: url)
    }

    /// Reads a fixture with format detection (or `format`) into `currency`.
    static func read(_ name: String, currency: Currency = .usd, format: CatalogFormat? = nil) throws -> ImportResult {
        try CatalogImporter(currency: currency, now: now).read(data(name), fileName: name, format: format)
    }

    /// Reads inline text.
    static func read(text: String, fileName: String, currency: Currency = .usd,
                     format: CatalogFormat? = nil) throws(ImportError) -> ImportResult {
        try CatalogImporter(currency: currency, now: now).read(Data(text.utf8), fileName: fileName, format: format)
    }

    /// The ImportError thrown by `body` (reading a file, checking its images …), failing the test
    /// when none is thrown.
    static func importError<Value>(_ body: () throws(ImportError) -> Value) -> ImportError? {
        do {
            let value = try body()
            Issue.record("expected an ImportError, got \(type(of: value)) \(String(describing: value).prefix(200))")
            return nil
        } catch {
            return error
        }
    }
}

extension ImportResult {
    func product(_ handle: String) throws -> ProductDraft {
        try #require(products.first { $0.handle == handle }, "no product \(handle) in \(products.map(\.handle))")
    }
}

func usd(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .usd) }
