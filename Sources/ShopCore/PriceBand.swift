/// A price range of the listing's price facet ("under 25", "25–50", …, "250 and up"), in minor
/// units of one currency: from `lowerMinor` (inclusive) to `upperMinor` (exclusive; nil for no
/// top). A product falls into the band of its lowest variant price.
///
/// The one home of the band rule (issue #13): fixed bands, the same for every result, at
/// `boundaries` major units — 25, 50, 100 and 250 — so a shopper sees the same choices on every
/// page and a band is a shareable URL value (`key`). Currencies without minor units (JPY, KRW…:
/// a major unit worth about a hundredth of a dollar or euro) use the boundaries × 100. Bands
/// computed per result (quantiles) were left out: they change as filters change, so counts
/// could not be compared and links would go stale.
///
/// ```swift
/// PriceBand.bands(for: .usd).map(\.key)    // ["0-25", "25-50", "50-100", "100-250", "250-"]
/// PriceBand.band(key: "25-50", currency: .usd)?.lowerMinor   // 2_500
/// ```
public struct PriceBand: Hashable, Sendable {
    /// The lowest price in the band, minor units, inclusive.
    public var lowerMinor: Int64
    /// The first price above the band, minor units (exclusive); nil for the top band.
    public var upperMinor: Int64?
    /// The currency of both bounds.
    public var currency: Currency

    /// Creates a band.
    public init(lowerMinor: Int64, upperMinor: Int64?, currency: Currency) {
        self.lowerMinor = lowerMinor
        self.upperMinor = upperMinor
        self.currency = currency
    }

    /// Where one band ends and the next begins, in major units (before `scale(for:)`).
    public static let boundaries: [Int64] = [25, 50, 100, 250]

    /// What `boundaries` are multiplied by for `currency`: 100 without minor units, else 1.
    public static func scale(for currency: Currency) -> Int64 {
        currency.minorUnitDigits == 0 ? 100 : 1
    }

    /// The bands of `currency`, lowest first: below the first boundary, between each two, and
    /// from the last up.
    public static func bands(for currency: Currency) -> [PriceBand] {
        let edges = boundaries.map { $0 * scale(for: currency) * currency.minorUnitsPerMajorUnit }
        let lowers = [0] + edges
        return lowers.indices.map { index in
            PriceBand(lowerMinor: lowers[index], upperMinor: index < edges.count ? edges[index] : nil, currency: currency)
        }
    }

    /// The band of `currency` whose `key` is `key`; nil for anything else.
    public static func band(key: String, currency: Currency) -> PriceBand? {
        bands(for: currency).first { $0.key == key }
    }

    /// The band of `currency` a price of `minorUnits` falls into (a negative price: the lowest).
    public static func band(containing minorUnits: Int64, currency: Currency) -> PriceBand {
        let all = bands(for: currency)
        return all.last { $0.lowerMinor <= minorUnits } ?? all[0]
    }

    /// Whether a price of `minorUnits` lies in the band.
    public func contains(_ minorUnits: Int64) -> Bool {
        minorUnits >= lowerMinor && upperMinor.map { minorUnits < $0 } ?? true
    }

    /// The band in URLs and the API: its bounds in whole major units, `lower-upper`, the top
    /// band `lower-` ("0-25", "250-").
    public var key: String {
        let unit = currency.minorUnitsPerMajorUnit
        return "\(lowerMinor / unit)-" + (upperMinor.map { String($0 / unit) } ?? "")
    }
}
