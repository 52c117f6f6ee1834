import ShopCore
import Testing

@Suite("Price bands")
struct PriceBandTests {
    /// Fixed bands at 25 / 50 / 100 / 250 major units; currencies without minor units × 100.
    @Test(.bug("issue #13", "price bands per currency"), arguments: [
        (Currency.usd, ["0-25", "25-50", "50-100", "100-250", "250-"], [0, 25_00, 50_00, 100_00, 250_00] as [Int64]),
        (.eur, ["0-25", "25-50", "50-100", "100-250", "250-"], [0, 25_00, 50_00, 100_00, 250_00]),
        (.try, ["0-25", "25-50", "50-100", "100-250", "250-"], [0, 25_00, 50_00, 100_00, 250_00]),
        (.jpy, ["0-2500", "2500-5000", "5000-10000", "10000-25000", "25000-"], [0, 2_500, 5_000, 10_000, 25_000]),
        (try! Currency(code: "KWD"), ["0-25", "25-50", "50-100", "100-250", "250-"], [0, 25_000, 50_000, 100_000, 250_000]),
    ])
    func bandsFollowTheCurrencysMinorUnits(currency: Currency, keys: [String], lowers: [Int64]) {
        let bands = PriceBand.bands(for: currency)
        #expect(bands.map(\.key) == keys)
        #expect(bands.map(\.lowerMinor) == lowers)
        #expect(bands.map(\.upperMinor) == lowers.dropFirst().map { $0 } + [nil])
        for band in bands { #expect(PriceBand.band(key: band.key, currency: currency) == band) }
    }

    @Test(arguments: [
        (Int64(0), "0-25"), (24_99, "0-25"), (25_00, "25-50"), (99_99, "50-100"), (100_00, "100-250"),
        (250_00, "250-"), (9_999_999_99, "250-"), (-5, "0-25"),
    ])
    func aPriceFallsIntoExactlyOneBand(price: Int64, key: String) {
        #expect(PriceBand.band(containing: price, currency: .usd).key == key)
        #expect(PriceBand.bands(for: .usd).filter { $0.contains(price) }.map(\.key) == (price < 0 ? [] : [key]))
    }

    @Test func unknownKeysAreNoBand() {
        #expect(PriceBand.band(key: "10-20", currency: .usd) == nil)
        #expect(PriceBand.band(key: "", currency: .usd) == nil)
        #expect(PriceBand.band(key: "0-2500", currency: .usd) == nil)
    }
}
