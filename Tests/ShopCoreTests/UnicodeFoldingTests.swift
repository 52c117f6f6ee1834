import Foundation
import Testing
@testable import ShopCore

/// The one-pass folding gives Foundation's whole-string results, so handles and search keys stay
/// what they were, and long texts fold in time proportional to their length (issue #8, point 4).
@Suite("Unicode folding in one pass")
struct UnicodeFoldingTests {
    /// Every scalar of the Basic Multilingual Plane except surrogates.
    static let bmp: [Unicode.Scalar] = (0...0xFFFF).compactMap { Unicode.Scalar(UInt32($0)) }

    @Test(arguments: [UnicodeFolding.Form.canonical, .compatibility])
    func everyScalarDecomposesAsFoundationDoes(form: UnicodeFolding.Form) {
        let mismatches = Self.bmp.filter { scalar in
            let text = String(scalar)
            return UnicodeFolding.decomposition(of: text, form: form) != Self.foundation(text, form)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0.value, radix: 16) })")
    }

    @Test(arguments: [
        "Çay Bardağı — İnce", "Cafe\u{0301} Crème", "ệ ḗ ǖ",
        "a\u{0301}\u{0316}", "I\u{0307}\u{0323}stanbul", "e\u{0323}\u{0302}\u{0323}\u{0302}",  // runs to reorder
        "\u{0301}\u{0316}leading marks", "ﬁ ² Ａ ǅ ﷺ ㎏", "한국어 \u{1112}\u{1161}\u{11AB}", "",
    ])
    func sequencesDecomposeAsFoundationDoes(text: String) {
        #expect(UnicodeFolding.decomposition(of: text, form: .canonical) == Self.foundation(text, .canonical))
        #expect(UnicodeFolding.decomposition(of: text, form: .compatibility) == Self.foundation(text, .compatibility))
    }

    @Test func mixedTextsDecomposeAsFoundationDoes() {
        // Letters, precomposed letters and combining marks of several classes, in every order.
        let pieces: [String] = ["a", "I", "é", "ş", "ǖ", "\u{0301}", "\u{0316}", "\u{0323}", "\u{0307}", "\u{0345}",
                                "ﬁ", "한", "\u{1161}", " ", "-", "ß", "ẞ", "İ", "ı"]
        var generator = SplitMix64(seed: 8)
        for _ in 0..<500 {
            let text = (0..<12).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(UnicodeFolding.decomposition(of: text, form: .canonical) == Self.foundation(text, .canonical))
            #expect(UnicodeFolding.decomposition(of: text, form: .compatibility) == Self.foundation(text, .compatibility))
        }
    }

    @Test func mixedTextsMakeTheSameHandlesAsFoundationsTransform() {
        let pieces: [String] = ["a", "Z", "7", "é", "Ş", "ǖ", "\u{0301}", "\u{0338}", "\u{0363}", "\u{094D}", "か",
                                "\u{3099}", "ﬁ", "한", " ", "-", "ß", "İ", "ı", "K", "❤\u{FE0F}", "1\u{FE0F}\u{20E3}"]
        var generator = SplitMix64(seed: 4)
        for _ in 0..<1_000 {
            let text = (0..<10).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(Handle.make(from: text) == Self.handleThroughFoundation(text), "\(text.debugDescription)")
        }
    }

    @Test func handlesAreTheSameAsWithFoundationsTransformForEveryScalar() {
        // Re-imports match products by handle: the faster handle must not change any handle.
        let mismatches = Self.bmp.filter { scalar in
            let text = "a\(scalar)b"
            return Handle.make(from: text) != Self.handleThroughFoundation(text)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0.value, radix: 16) })")
    }

    // The limits guard against quadratic work (hours on these texts), not speed: alone the tests
    // take 1–3 s in a debug build; 3 minutes leaves room for a starved parallel run on two cores.
    @Test(.timeLimit(.minutes(3)), .bug(id: 8, "Handle.make took 17 s for 640 000 × é"))
    func longAccentedTextsMakeHandlesInOnePass() {
        #expect(Handle.make(from: String(repeating: "é", count: 640_000)) == String(repeating: "e", count: 640_000))
        let unit = "Çay Bardağı — İnce Straße, crème brûlée; ñandú Ærø 한국 ﬁne "
        let copies = 3_000_000 / unit.utf8.count
        let text = String(repeating: unit, count: copies)
        #expect(Handle.make(from: text) == Array(repeating: Handle.make(from: unit), count: copies).joined(separator: "-"))
    }

    @Test(.timeLimit(.minutes(3)), .bug(id: 8, "search folding was quadratic in the text's length"))
    func longAccentedTextsFoldInOnePass() {
        #expect(SearchFolding.fold(String(repeating: "é", count: 640_000), locale: .english)
            == String(repeating: "e", count: 640_000))
        let unit = "IŞIK Çay Bardağı — İnce Straße, crème brûlée; ñandú Ærø 한국 ﬁne "
        let copies = 3_000_000 / unit.utf8.count
        let text = String(repeating: unit, count: copies)
        for locale in [SearchLocale.english, .turkish] {
            #expect(SearchFolding.fold(text, locale: locale)
                == Array(repeating: SearchFolding.fold(unit, locale: locale), count: copies).joined(separator: " "))
        }
        // One letter carrying 200 000 marks out of canonical order: one long run to sort.
        let marks = String(repeating: "\u{0301}\u{0316}", count: 100_000)
        #expect(SearchFolding.fold("e" + marks + " x", locale: .english) == "e x")
    }

    // MARK: References: the whole-string Foundation calls the one-pass code replaces.

    static func foundation(_ text: String, _ form: UnicodeFolding.Form) -> [Unicode.Scalar] {
        Array((form == .canonical ? text.decomposedStringWithCanonicalMapping
            : text.decomposedStringWithCompatibilityMapping).unicodeScalars)
    }

    /// `Handle.make` as it was before issue #8.
    static func handleThroughFoundation(_ text: String) -> String {
        let folded = text.applyingTransform(.stripDiacritics, reverse: false) ?? text
        var result = ""
        var pendingDash = false
        for scalar in folded.lowercased().unicodeScalars {
            let mapped: Unicode.Scalar = scalar == "ı" ? "i" : scalar
            if mapped.isASCII, mapped.properties.isAlphabetic || ("0"..."9").contains(mapped) {
                if pendingDash, !result.isEmpty { result.append("-") }
                pendingDash = false
                result.unicodeScalars.append(mapped)
            } else {
                pendingDash = true
            }
        }
        return result.isEmpty ? "item" : result
    }
}

/// A small seeded generator, so the mixed texts are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
