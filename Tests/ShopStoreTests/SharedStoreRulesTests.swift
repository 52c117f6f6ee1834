import Foundation
import ShopCore
import ShopStore
import Testing

/// Rules every engine applies after its SQL has answered, tested without an engine.
@Suite("Rules above the stores")
struct SharedStoreRulesTests {
    @Test(arguments: [
        // (quantity, limit, in cart now, expected refusal or nil: the variant is gone)
        (1, 5, Optional(5), Optional(5)),
        (3, 5, Optional(4), Optional(4)),
        (6, 5, nil, Optional(0)),
        (2, 5, nil, nil),
    ])
    func aRefusedAddSaysWhy(quantity: Int, limit: Int, inCart: Int?, expected: Int?) {
        do {
            try CartLineLimitExceeded.check(refusedAdd: quantity, limit: limit, inCart: inCart)
            #expect(expected == nil)
        } catch {
            #expect(error == CartLineLimitExceeded(inCart: expected ?? -1))
        }
    }

    @Test func holdsAreShortGoneOrHeld() {
        let (gone, hidden, free, limited, tight) = (Variant.ID(1), Variant.ID(2), Variant.ID(3), Variant.ID(4), Variant.ID(5))
        let flags: [Variant.ID: (isPublished: Bool, isLimited: Bool)] = [
            hidden: (false, true), free: (true, false), limited: (true, true), tight: (true, true),
        ]
        let available: [Variant.ID: Int] = [limited: 5, tight: 1]
        let result = OrderRules.holds(for: [(gone, 1), (hidden, 1), (free, 9), (limited, 2), (tight, 2)],
                                      stock: { flags[$0] }, available: { available[$0] ?? 0 })
        #expect(result.short == [gone: 0, hidden: 0, tight: 1])
        #expect(result.held.map(\.0) == [limited] && result.held.map(\.1) == [2])
    }
}

@Suite("Tag keys")
struct TagKeyTests {
    @Test(arguments: [("Oak", "oak"), ("OAK", "oak"), ("ALL-CAPS_42 & more", "all-caps_42 & more"), ("", ""),
                      ("İndirim", "indirim"), ("Çay", "çay"), ("cafe\u{301}", "café"), ("ÑANDÚ", "ñandú"),
                      ("Işık", "işik"), ("IŞIK", "işik"), ("ışık", "işik"), ("İŞİK", "işik")])
    func lowerCasesInNFC(tag: String, key: String) {
        #expect(ProductSearchRules.tagKey(tag) == key)
    }

    /// The ASCII path (issue #14: Foundation's was 7 % of an uncached category page) gives the
    /// key the general path gives, for every ASCII byte.
    @Test func asciiTagsGetTheGeneralPathsKey() {
        let every = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for tag in [every, "Mixed Case Tag", "UPPER", "lower", "Tab\tand\nnewline"] {
            #expect(ProductSearchRules.tagKey(tag)
                    == tag.replacingOccurrences(of: "İ", with: "i").lowercased().precomposedStringWithCanonicalMapping
                        .replacingOccurrences(of: "ı", with: "i"))
        }
    }
}
