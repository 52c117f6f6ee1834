public import Foundation

/// A time-boxed promotion: a discount rule, what it applies to, and optionally a voucher code the
/// shopper types in the cart (issue #4). Campaigns come from a merchant's JSON file
/// (`docs/CAMPAIGNS.md`).
public struct Campaign: Identifiable, Hashable, Sendable {
    /// The merchant's identifier from the file, e.g. `"winter-sale"` (URL-safe, unique).
    public typealias ID = Tagged<Campaign, String>

    public var id: ID
    /// Shown on the campaign's card and page and in the cart's voucher message, in the
    /// shopper's language when the merchant translated it (issue #11).
    public var title: LocalizedText
    /// Plain text, shown on the campaign page (translated like `title`).
    public var description: LocalizedText
    /// Banner image: absolute URL or site path.
    public var imageURL: String?
    /// First instant the campaign applies (inclusive).
    public var startsAt: Date
    /// First instant it no longer applies (exclusive).
    public var endsAt: Date
    /// How much is taken off.
    public var discount: Discount
    /// Which cart lines the discount applies to.
    public var target: DiscountTarget
    /// The selected subtotal (before discount) must be at least this much.
    public var minimumSubtotal: Money?
    /// The code a shopper types to get the discount; nil for a campaign shown without a code.
    public var voucherCode: VoucherCode?
    /// How many orders of one account may use it (enforced when orders exist, issue #5).
    public var usageLimitPerAccount: Int?
    /// Held back by the merchant (issue #16): a paused campaign is not shown and its code is not
    /// accepted, whatever its window says, until it is resumed.
    public var isPaused: Bool

    /// Creates a campaign value (validation happens when reading files: `CampaignFile`).
    public init(id: ID, title: LocalizedText, description: LocalizedText = "", imageURL: String? = nil, startsAt: Date, endsAt: Date,
                discount: Discount, target: DiscountTarget = .wholeCart, minimumSubtotal: Money? = nil,
                voucherCode: VoucherCode? = nil, usageLimitPerAccount: Int? = nil, isPaused: Bool = false) {
        self.id = id
        self.title = title
        self.description = description
        self.imageURL = imageURL
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.discount = discount
        self.target = target
        self.minimumSubtotal = minimumSubtotal
        self.voucherCode = voucherCode
        self.usageLimitPerAccount = usageLimitPerAccount
        self.isPaused = isPaused
    }

    /// `true` when `now` is within `[startsAt, endsAt)` and the campaign is not paused.
    public func isActive(at now: Date) -> Bool { !isPaused && startsAt <= now && now < endsAt }

    /// Where a campaign stands at `now`, for lists of campaigns (the CLI, the back office).
    public func state(at now: Date) -> CampaignState {
        if isPaused { return .paused }
        if now < startsAt { return .scheduled }
        return now < endsAt ? .active : .ended
    }

    /// The longest campaign id, in characters.
    public static let maximumIDLength = 64

    /// `true` for a usable id: 1…64 of `a`–`z`, `0`–`9`, `-`, `_`, starting with a letter or
    /// digit (it appears in URLs: `/campaigns/winter-sale`).
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= maximumIDLength,
              isIDScalar(first), first != "-", first != "_" else { return false }
        return id.unicodeScalars.allSatisfy(isIDScalar)
    }

    private static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }
}

/// Where a campaign stands at a moment (`Campaign.state(at:)`).
public enum CampaignState: String, CaseIterable, Hashable, Sendable {
    /// Running now: shown, and its code accepted.
    case active
    /// Its window has not begun.
    case scheduled
    /// Its window is over.
    case ended
    /// Held back by the merchant, whatever the window says.
    case paused
}

/// How much a campaign takes off.
public enum Discount: Hashable, Sendable {
    /// A whole percentage, 1…100, of what the shopper pays for the qualifying lines.
    case percentage(Int)
    /// A fixed amount off the qualifying lines together (never more than they cost).
    case fixedAmount(Money)
}

/// Which cart lines a discount applies to.
public enum DiscountTarget: Hashable, Sendable {
    /// Every selected line.
    case wholeCart
    /// Lines whose product is in the category with this handle.
    case category(handle: String)
    /// Lines whose product has one of these handles.
    case products(handles: [String])
}

/// A voucher code as shoppers type it: compared case-insensitively, without surrounding spaces.
public struct VoucherCode: Hashable, Sendable, CustomStringConvertible {
    /// The code in upper case, e.g. `"WINTER20"`.
    public let normalized: String

    /// Normalizes `text` (compatibility forms composed — full-width letters become ASCII —,
    /// trimmed, upper-cased with the Turkish `İ` as `I`, as `ı` already becomes, so a Turkish
    /// keyboard types the same code; no inner spaces); nil when nothing is left or it has
    /// characters other than letters, digits, `-` and `_`, or is longer than 40.
    public init?(_ text: String) {
        // A cart with a voucher reads its stored code on every page (issue #14): a code already
        // in this form, or any of ASCII letters, digits, `-` and `_`, is taken byte by byte (the
        // Unicode rules below were ~1.5 % of such a shopper's page).
        if let ascii = Self.normalizedASCII(text) {
            normalized = ascii
            return
        }
        let trimmed = text.precomposedStringWithCompatibilityMapping.trimmedOfWhiteSpace.uppercased()
            .replacing("İ", with: "I")
        guard !trimmed.isEmpty, trimmed.count <= 40,
              trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        normalized = trimmed
    }

    public var description: String { normalized }

    /// `text` upper-cased when it is 1–40 ASCII letters, digits, `-` and `_` and nothing else;
    /// nil otherwise (then the general rules decide).
    private static func normalizedASCII(_ text: String) -> String? {
        let bytes = text.utf8
        guard (1...40).contains(bytes.count) else { return nil }
        var isUpper = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): isUpper = false
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"): continue
            default: return nil
            }
        }
        if isUpper { return text }
        return String(decoding: bytes.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
