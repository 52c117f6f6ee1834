import Foundation
import HTML
import ShopCore
import Synchronization

/// The parts of a page that belong to one visitor, marked in the rendered HTML and filled in
/// per request — so catalog pages can be rendered once and cached (`PageCache`) and still carry
/// the visitor's CSRF token and hearts.
///
/// Markers are HTML comments (`<!--p:csrf-->`, `<!--p:fav:12-->`). They cannot come from
/// merchant or shopper text: the HTML builder escapes `<` in text and attributes, and the import
/// sanitizer drops comments from descriptions.
enum Personalization {
    static let csrfMarker = "<!--p:csrf-->"

    /// A hidden `csrf_token` field, filled in per request.
    static var csrfField: Node { .raw(unsafe: csrfMarker) }

    /// A heart toggle for a product: add to / remove from favorites. Without JavaScript it is a
    /// form POST that redirects back to `returnTo`; `app.js` toggles it in place.
    static func heart(productID: Product.ID, returnTo: String) -> Node {
        var writer = HTMLWriter(reservingCapacity: 768)
        writeHeart(productID: productID, returnTo: returnTo, into: &writer)
        return writer.node
    }

    /// ``heart(productID:returnTo:)`` written straight to bytes (a product card's).
    static func writeHeart(productID: Product.ID, returnTo: String, into writer: inout HTMLWriter) {
        writer.element("form", .class("heart-form"), .method("post"), .action(SiteRoute.favorites(.toggle(productID)).path),
                       .data("heart", String(productID.rawValue))) { writer in
            writer.raw(unsafe: csrfMarker)
            writer.void("input", .type("hidden"), .name("return_to"), .value(returnTo))
            // The marker stands for the favorite field and the button's opening tag (pressed or
            // not, and its label); the icon and `</button>` are the same for everyone.
            writer.raw(unsafe: "<!--p:fav:\(productID.rawValue)-->")
            writer.raw(unsafe: heartTail)
        }
    }

    /// The icon and `</button>` after a heart's marker: one string for every card (joining them
    /// per card copied ~400 bytes each time).
    private static let heartTail = heartSVG + "</button>"

    /// What replaces the markers for one visitor.
    struct Values {
        /// The session's CSRF token, masked; nil for a visitor without a session, whose forms
        /// carry none (`RequestSite`) — their pages are then the same for every such visitor.
        var csrfToken: String?
        var favorites: Set<Product.ID>
        var addLabel: String
        var removeLabel: String

        /// What every visitor without a session sees: no CSRF field, no heart pressed.
        static func withoutSession(_ l10n: Localizer) -> Values {
            Values(csrfToken: nil, favorites: [], addLabel: l10n(.favoriteAdd), removeLabel: l10n(.favoriteRemove))
        }
    }

    private static let prefix = Array("<!--p:".utf8)
    private static let suffix = Array("-->".utf8)

    /// `true` when the document has markers to fill.
    static func needsValues(_ document: [UInt8]) -> Bool { ByteSearch.firstIndex(of: prefix, in: document) != nil }

    /// A marker's meaning.
    enum Marker: Hashable, Sendable {
        /// The hidden `csrf_token` field.
        case csrf
        /// A heart button, pressed when the product is a favorite.
        case favorite(Product.ID)
        /// A name this version does not know: replaced by nothing.
        case unknown
    }

    /// Calls `fixed` with each run of bytes between markers and `marker` with each marker, in
    /// document order (the one parser of the marker syntax, for `apply` and `CompressedPage`).
    static func walk(_ document: [UInt8], fixed: (Range<Int>) -> Void, marker: (Marker, Range<Int>) -> Void) {
        var copied = 0
        var next = ByteSearch.firstIndex(of: prefix, in: document)
        while let start = next, let end = ByteSearch.firstIndex(of: suffix, in: document, from: start + prefix.count) {
            if start > copied { fixed(copied..<start) }
            let name = document[(start + prefix.count)..<end]
            let range = start..<(end + suffix.count)
            if name.elementsEqual("csrf".utf8) {
                marker(.csrf, range)
            } else if name.starts(with: "fav:".utf8), let raw = Int64(String(decoding: name.dropFirst(4), as: UTF8.self)) {
                marker(.favorite(Product.ID(rawValue: raw)), range)
            } else {
                marker(.unknown, range)
            }
            copied = end + suffix.count
            next = ByteSearch.firstIndex(of: prefix, in: document, from: copied)
        }
        if copied < document.count { fixed(copied..<document.count) }
    }

    /// What replaces the markers for one visitor, each replacement built once.
    struct Replacements {
        let csrfInput: [UInt8]
        let heartOn: [UInt8]
        let heartOff: [UInt8]
        let favorites: Set<Product.ID>

        init(_ values: Values) {
            csrfInput = values.csrfToken.map(Self.csrfInput) ?? []
            (heartOn, heartOff) = Self.hearts(addLabel: values.addLabel, removeLabel: values.removeLabel)
            favorites = values.favorites
        }

        /// The hidden CSRF field for `token`, written straight to bytes (through a `Node`, its
        /// rendering was 1 % of a shopper's product page). A token as `CSRFMask` makes it (URL-safe
        /// base64, dots and hex digits) needs no escaping, so it goes between the field's two
        /// fixed halves as it is; through `HTMLWriter`, attribute by attribute, it was still
        /// 1.6 % of that page. Anything else is written by `HTMLWriter`, escaped.
        static func csrfInput(_ token: String) -> [UInt8] {
            let bytes = token.utf8
            guard bytes.allSatisfy(isPlainTokenByte) else {
                var writer = HTMLWriter(reservingCapacity: 160)
                writer.void("input", .type("hidden"), .name(ShopApp.csrfField), .value(token))
                return writer.bytes
            }
            var input = csrfInputHalves.before
            input.reserveCapacity(input.count + bytes.count + csrfInputHalves.after.count)
            input += bytes
            input += csrfInputHalves.after
            return input
        }

        /// What `HTMLWriter` writes before and after a plain token's bytes.
        private static let csrfInputHalves: (before: [UInt8], after: [UInt8]) = {
            let marker = "MARKER"
            var writer = HTMLWriter(reservingCapacity: 160)
            writer.void("input", .type("hidden"), .name(ShopApp.csrfField), .value(marker))
            let written = writer.bytes
            let at = ByteSearch.firstIndex(of: Array(marker.utf8), in: written, from: 0)!
            return (Array(written[..<at]), Array(written[(at + marker.utf8.count)...]))
        }()

        private static func isPlainTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
            default: false
            }
        }

        /// The two heart buttons for these labels, made once per pair of labels (once per
        /// language): building them was ~2.4 % of a shopper's category page.
        private static func hearts(addLabel: String, removeLabel: String) -> (on: [UInt8], off: [UInt8]) {
            let key = HeartLabels(add: addLabel, remove: removeLabel)
            if let known = heartsByLabels.withLock({ $0[key] }) { return known }
            // Two heart buttons cover every product on the page: each padded (with spaces inside
            // the tag) to one length, so a compressed page keeps its byte offsets whichever
            // products are favorites (`CompressedPage`).
            var on = heartButton(isFavorite: true, addLabel: addLabel, removeLabel: removeLabel)
            var off = heartButton(isFavorite: false, addLabel: addLabel, removeLabel: removeLabel)
            let length = max(on.count, off.count)
            on.insert(contentsOf: [UInt8](repeating: 0x20, count: length - on.count), at: on.count - 1)
            off.insert(contentsOf: [UInt8](repeating: 0x20, count: length - off.count), at: off.count - 1)
            heartsByLabels.withLock { kept in
                if kept.count >= 16 { kept.removeAll() }  // labels come from the catalogs: a few languages
                kept[key] = (on, off)
            }
            return (on, off)
        }

        private struct HeartLabels: Hashable {
            var add: String
            var remove: String
        }

        private static let heartsByLabels = Mutex<[HeartLabels: (on: [UInt8], off: [UInt8])]>([:])

        private init(csrfInput: [UInt8], heartOn: [UInt8], heartOff: [UInt8], favorites: Set<Product.ID>) {
            self.csrfInput = csrfInput
            self.heartOn = heartOn
            self.heartOff = heartOff
            self.favorites = favorites
        }

        /// For a page without markers (a document kept filled): nothing to replace.
        static let none = Replacements(csrfInput: [], heartOn: [], heartOff: [], favorites: [])

        /// The bytes `marker` stands for.
        func bytes(for marker: Marker) -> [UInt8] {
            switch marker {
            case .csrf: csrfInput
            case let .favorite(id): favorites.contains(id) ? heartOn : heartOff
            case .unknown: []
            }
        }
    }

    /// `document` with every marker replaced.
    static func apply(_ document: [UInt8], _ values: Values) -> [UInt8] {
        guard needsValues(document) else { return document }
        let replacements = Replacements(values)
        var output: [UInt8] = []
        output.reserveCapacity(document.count + 4_096)
        walk(document, fixed: { output.append(contentsOf: document[$0]) },
             marker: { marker, _ in output.append(contentsOf: replacements.bytes(for: marker)) })
        return output
    }

    fileprivate static func heartButton(isFavorite: Bool, addLabel: String, removeLabel: String) -> [UInt8] {
        let label = escape(isFavorite ? removeLabel : addLabel)
        return Array(("<input type=\"hidden\" name=\"favorite\" value=\"\(isFavorite ? 0 : 1)\">"
            + "<button type=\"submit\" class=\"heart\" aria-pressed=\"\(isFavorite)\" aria-label=\"\(label)\" title=\"\(label)\">").utf8)
    }

    static let heartSVG = "<svg class=\"icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\">"
        + "<path d=\"M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.1 3.4 4.5 6.9 4.5c2.1 0 3.6 1.2 5.1 3 1.5-1.8 3-3 5.1-3 3.5 0 5.4 3.6 4.2 6.8-1.8 4.6-9.3 9.2-9.3 9.2z\"/></svg>"

    fileprivate static func escape(_ text: String) -> String { renderString(.text(text)) }
}
