import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTML
import ShopCore

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
        form(.class("heart-form"), .method("post"), .action(SiteRoute.favorites(.toggle(productID)).path),
             .data("heart", String(productID.rawValue))) {
            csrfField
            input(.type("hidden"), .name("return_to"), .value(returnTo))
            Node.raw(unsafe: "<!--p:fav:\(productID.rawValue)-->")
        }
    }

    /// What replaces the markers for one visitor.
    struct Values {
        var csrfToken: String
        var favorites: Set<Product.ID>
        var addLabel: String
        var removeLabel: String
    }

    private static let prefix = Array("<!--p:".utf8)
    private static let suffix = Array("-->".utf8)

    /// `true` when the document has markers to fill.
    static func needsValues(_ document: [UInt8]) -> Bool { find(prefix, in: document, from: 0) != nil }

    /// `document` with every marker replaced.
    static func apply(_ document: [UInt8], _ values: Values) -> [UInt8] {
        guard var start = find(prefix, in: document, from: 0) else { return document }
        var output: [UInt8] = []
        output.reserveCapacity(document.count + 4_096)
        var copied = 0
        let csrfInput = Array("<input type=\"hidden\" name=\"\(ShopApp.csrfField)\" value=\"\(escape(values.csrfToken))\">".utf8)
        // Two heart buttons cover every product on the page: build each once.
        let heartOn = heartButton(isFavorite: true, values), heartOff = heartButton(isFavorite: false, values)
        while true {
            guard let end = find(suffix, in: document, from: start + prefix.count) else { break }
            output.append(contentsOf: document[copied..<start])
            let name = document[(start + prefix.count)..<end]
            if name.elementsEqual("csrf".utf8) {
                output.append(contentsOf: csrfInput)
            } else if name.starts(with: "fav:".utf8), let raw = Int64(String(decoding: name.dropFirst(4), as: UTF8.self)) {
                output.append(contentsOf: values.favorites.contains(Product.ID(rawValue: raw)) ? heartOn : heartOff)
            }
            copied = end + suffix.count
            guard let next = find(prefix, in: document, from: copied) else { break }
            start = next
        }
        output.append(contentsOf: document[copied...])
        return output
    }

    private static func heartButton(isFavorite: Bool, _ values: Values) -> [UInt8] {
        let label = escape(isFavorite ? values.removeLabel : values.addLabel)
        return Array(("<input type=\"hidden\" name=\"favorite\" value=\"\(isFavorite ? 0 : 1)\">"
            + "<button type=\"submit\" class=\"heart\" aria-pressed=\"\(isFavorite)\" aria-label=\"\(label)\" title=\"\(label)\">"
            + heartSVG + "</button>").utf8)
    }

    static let heartSVG = "<svg class=\"icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\">"
        + "<path d=\"M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.1 3.4 4.5 6.9 4.5c2.1 0 3.6 1.2 5.1 3 1.5-1.8 3-3 5.1-3 3.5 0 5.4 3.6 4.2 6.8-1.8 4.6-9.3 9.2-9.3 9.2z\"/></svg>"

    private static func escape(_ text: String) -> String { renderString(.text(text)) }

    /// The first index of `needle` in `haystack` at or after `start` (memchr for the first byte,
    /// memcmp for the rest).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                // Look for the needle's second byte (`!` of `<!--`, `-` of `-->`): far rarer in HTML
                // than `<`, which starts every tag.
                let anchor = pin.count > 1 ? 1 : 0
                var position = start + anchor
                let last = hay.count - pin.count + anchor
                while position <= last {
                    guard let hit = memchr(base + position, Int32(pinBase[anchor]), last - position + 1) else { return nil }
                    let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
                    if memcmp(base + index, pinBase, pin.count) == 0 { return index }
                    position = index + anchor + 1
                }
                return nil
            }
        }
    }
}
