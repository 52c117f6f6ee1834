public import Foundation

/// A `Campaign` property, named as in Swift; a campaign-file reader maps it to its own key when
/// it words a message.
public enum CampaignField: String, CaseIterable, Hashable, Sendable {
    /// `Campaign.id`.
    case id
    /// `Campaign.title` (every translation).
    case title
    /// `Campaign.description` (every translation).
    case description
    /// `Campaign.imageURL`.
    case imageURL
    /// `Campaign.discount`.
    case discount
    /// `Campaign.startsAt`.
    case startsAt
    /// `Campaign.endsAt`.
    case endsAt
    /// `Campaign.target`.
    case target
    /// `Campaign.minimumSubtotal`.
    case minimumSubtotal
    /// `Campaign.usageLimitPerAccount`.
    case usageLimitPerAccount
}

/// Why a campaign (or its discount) is not valid for the shop. Readers of merchant files call
/// `Campaign.validate(currency:)` and reject the whole file on the first error, naming the
/// campaign and `field` (issue #4, item 6).
public enum CampaignValidationError: Error, Hashable, Sendable, LocalizedError {
    /// A percentage must satisfy 0 < p ≤ 100 (issue #4: "percentage off (0 < p ≤ 100)").
    case percentageOutOfRange(Int)
    /// A fixed amount off must be more than zero.
    case fixedAmountNotPositive(Money)
    /// An amount is in `found`, not the shop currency `expected`.
    case currencyMismatch(field: CampaignField, expected: Currency, found: Currency)
    /// A minimum subtotal must be more than zero (leave it out for no minimum).
    case minimumSubtotalNotPositive(Money)
    /// The window `[startsAt, endsAt)` must not be empty: `startsAt < endsAt`.
    case endsNotAfterStart(startsAt: Date, endsAt: Date)
    /// A usage limit per account must be at least 1 (leave it out for no limit).
    case usageLimitNotPositive(Int)
    /// A category target needs a handle; a products target needs at least one product handle.
    case emptyTarget
    /// A products target lists this handle twice.
    case repeatedProduct(String)
    /// Not 1…64 of `a`–`z`, `0`–`9`, `-`, `_` (`Campaign.isValidID`).
    case invalidID(String)
    /// An image must be a site path (`/static/…`) or an http(s) URL.
    case imageNotSitePathOrWebURL(String)
    /// A title or description (or one of its translations) is longer than `maximum` characters.
    case textTooLong(CampaignField, maximum: Int)

    /// The campaign property at fault.
    public var field: CampaignField {
        switch self {
        case .percentageOutOfRange, .fixedAmountNotPositive: .discount
        case let .currencyMismatch(field, _, _): field
        case .minimumSubtotalNotPositive: .minimumSubtotal
        case .endsNotAfterStart: .endsAt
        case .usageLimitNotPositive: .usageLimitPerAccount
        case .emptyTarget, .repeatedProduct: .target
        case .invalidID: .id
        case .imageNotSitePathOrWebURL: .imageURL
        case let .textTooLong(field, _): field
        }
    }

    /// English text naming the field, e.g.
    /// "discount: a percentage must be more than 0 and at most 100, not 150".
    public var errorDescription: String? {
        let problem = switch self {
        case let .percentageOutOfRange(percent): "a percentage must be more than 0 and at most 100, not \(percent)"
        case let .fixedAmountNotPositive(amount): "a fixed amount off must be more than zero, not \(amount)"
        case let .currencyMismatch(_, expected, found): "the amount is in \(found.code), but the shop sells in \(expected.code)"
        case let .minimumSubtotalNotPositive(amount): "a minimum subtotal must be more than zero, not \(amount) (leave it out for no minimum)"
        case let .endsNotAfterStart(startsAt, endsAt):
            "the end (\(endsAt.formatted(.iso8601))) must be after the start (\(startsAt.formatted(.iso8601)))"
        case let .usageLimitNotPositive(limit): "a usage limit must be at least 1, not \(limit) (leave it out for no limit)"
        case .emptyTarget: "the target names no category or no products"
        case let .repeatedProduct(handle): "the target lists “\(handle)” twice"
        case let .invalidID(id): "“\(id)” is not a usable id: use 1–\(Campaign.maximumIDLength) lower-case letters, digits, “-” and “_”"
        case let .imageNotSitePathOrWebURL(image):
            "“\(image)” is not a site path such as /static/images/campaigns/winter.svg or an http(s) URL"
        case let .textTooLong(_, maximum): "at most \(maximum) characters (in every language)"
        }
        return "\(field.rawValue): \(problem)"
    }
}

extension Discount {
    /// Returns the discount unchanged when it is valid in a shop selling in `currency`.
    /// - Throws: `CampaignValidationError.percentageOutOfRange` unless 0 < p ≤ 100;
    ///   `.fixedAmountNotPositive` for a fixed amount ≤ 0; `.currencyMismatch(field: .discount, …)`
    ///   for a fixed amount in another currency.
    public func validated(currency: Currency) throws(CampaignValidationError) -> Discount {
        switch self {
        case let .percentage(percent):
            guard percent > 0, percent <= 100 else { throw .percentageOutOfRange(percent) }
        case let .fixedAmount(amount):
            guard amount.currency == currency else {
                throw .currencyMismatch(field: .discount, expected: currency, found: amount.currency)
            }
            guard amount.minorUnits > 0 else { throw .fixedAmountNotPositive(amount) }
        }
        return self
    }
}

extension Campaign {
    /// The longest title, in characters, in any language.
    public static let maximumTitleLength = 200
    /// The longest description, in characters, in any language.
    public static let maximumDescriptionLength = 2_000

    /// Checks the rules every campaign keeps — whether it comes from the merchant's file or the
    /// back office's form — in this order: the id, the title's and description's lengths, the image, the discount
    /// (`Discount.validated(currency:)`), `startsAt < endsAt`, the minimum subtotal (shop currency,
    /// more than zero), the usage limit (≥ 1) and the target (not empty, no handle twice).
    /// - Parameter currency: the shop currency.
    /// - Throws: the first `CampaignValidationError` found.
    public func validate(currency: Currency) throws(CampaignValidationError) {
        if let first = problems(currency: currency).first { throw first }
    }

    /// Every rule the campaign breaks, one error per rule, in ``validate(currency:)``'s order —
    /// for a form that shows each mistake under its field.
    /// - Parameter currency: the shop currency.
    public func problems(currency: Currency) -> [CampaignValidationError] {
        var found: [CampaignValidationError] = []
        if !Campaign.isValidID(id.rawValue) { found.append(.invalidID(id.rawValue)) }
        for (field, text, maximum) in [(CampaignField.title, title, Campaign.maximumTitleLength),
                                       (.description, description, Campaign.maximumDescriptionLength)]
        where ([text.defaultText] + text.translations.values).contains(where: { $0.count > maximum }) {
            found.append(.textTooLong(field, maximum: maximum))
        }
        if let imageURL, !Self.isSitePathOrWebURL(imageURL) { found.append(.imageNotSitePathOrWebURL(imageURL)) }
        do { _ = try discount.validated(currency: currency) } catch { found.append(error) }
        if startsAt >= endsAt { found.append(.endsNotAfterStart(startsAt: startsAt, endsAt: endsAt)) }
        if let minimumSubtotal {
            if minimumSubtotal.currency != currency {
                found.append(.currencyMismatch(field: .minimumSubtotal, expected: currency, found: minimumSubtotal.currency))
            } else if minimumSubtotal.minorUnits <= 0 {
                found.append(.minimumSubtotalNotPositive(minimumSubtotal))
            }
        }
        if let usageLimitPerAccount, usageLimitPerAccount < 1 { found.append(.usageLimitNotPositive(usageLimitPerAccount)) }
        switch target {
        case .wholeCart: break
        case let .category(handle): if handle.isEmpty { found.append(.emptyTarget) }
        case let .products(handles):
            if handles.isEmpty || handles.contains(where: \.isEmpty) {
                found.append(.emptyTarget)
            } else {
                var seen: Set<String> = []
                if let twice = handles.first(where: { !seen.insert($0).inserted }) { found.append(.repeatedProduct(twice)) }
            }
        }
        return found
    }

    /// `true` for `/a/site/path` (not `//host`) or an `http(s)://` URL, without spaces or `\\`.
    public static func isSitePathOrWebURL(_ text: String) -> Bool {
        guard !text.contains(where: { $0.isWhitespace || $0 == "\\" }) else { return false }
        let lower = text.lowercased()
        // A site path, never climbing out of the site (`/../`, `/./`, or their %2e spellings).
        if text.hasPrefix("/") {
            return !text.hasPrefix("//") && !lower.contains("%2e")
                && !text.split(separator: "/").contains { $0 == ".." || $0 == "." }
        }
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && lower.count > "https://".count
    }
}
