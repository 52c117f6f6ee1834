public import Foundation
public import ShopAPI
import ShopCore

extension V1Money {
    /// The amount the server priced, written for `locale` with ShopCore's `MoneyFormatter` (the
    /// storefront's one money rule); the server's own `formatted` text when the currency is not
    /// one ShopCore knows. Only the writing is local: the number is the server's.
    /// - Parameter locale: the app's locale (`AppModel.locale`).
    /// - Returns: e.g. `"$49.90"` in en_US, `"49,90 US$"` in es_ES.
    public func text(in locale: Locale) -> String {
        guard let currency = try? Currency(code: currency) else { return formatted }
        return MoneyFormatter.shared.string(Money(minorUnits: minorUnits, currency: currency), locale: locale)
    }
}

/// A product as a card or row shows it (lists, favorites, home, related products, campaigns):
/// every text already written for the locale.
public struct ProductCard: Identifiable, Hashable, Sendable {
    /// The product's id (what favorites and `V1AddLine.productId` take).
    public var id: Int64
    /// The product's handle (`Route.product(handle:)`, `V1AddLine.product`).
    public var handle: String
    public var title: String
    public var vendor: String
    /// The lowest variant price, formatted ("$49.90"); nil when the product has no price.
    public var price: String?
    /// The main image, if any.
    public var imageURL: URL?
    /// The average rating out of 5 with one decimal, written for the locale by ShopCore's
    /// `Rating.text(in:)` ("3.9", "3,9"); nil without ratings.
    public var rating: String?
    /// How many ratings.
    public var ratingCount: Int
    /// `true` when no variant can be bought (no quick add).
    public var soldOut: Bool

    /// The card of `summary`, written for `locale`.
    /// - Parameters:
    ///   - summary: the API's product summary.
    ///   - locale: the app's locale.
    public init(_ summary: V1ProductSummary, locale: Locale) {
        id = summary.id
        handle = summary.handle
        title = summary.title
        vendor = summary.vendor
        price = summary.price?.text(in: locale)
        imageURL = summary.image.flatMap(URL.init(string:))
        rating = summary.rating.map { Rating(rateHundredths: $0.rateHundredths, count: $0.count).text(in: locale) }
        ratingCount = summary.rating?.count ?? 0
        soldOut = summary.soldOut
    }
}
