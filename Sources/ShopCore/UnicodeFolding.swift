import Foundation

/// Unicode decomposition (NFD, NFKD) and diacritic stripping in one pass over the text, in time
/// proportional to its length. Every folding in ShopCore (`Handle`, `SearchFolding`, the account
/// rules) goes through here.
///
/// Why not Foundation's whole-string `decomposedStringWithCompatibilityMapping`,
/// `decomposedStringWithCanonicalMapping` or `applyingTransform(.stripDiacritics, …)`: on Linux
/// they take time that grows with the square of the text's length (640 000 × "é" took 17 s in
/// `Handle.make`, inside the import's write transaction).
///
/// Both operations are defined scalar by scalar, so Foundation is asked once per distinct
/// non-ASCII scalar, on a one-scalar string, and the answer is remembered for the rest of the
/// text; ASCII maps to itself. A decomposition then puts each run of non-starters (canonical combining class
/// ≠ 0) in canonical order, a stable sort by combining class (Unicode §3.11), so the result equals
/// Foundation's whole-string one.
enum UnicodeFolding {
    /// Which decomposition.
    enum Form: Sendable {
        /// NFD: canonical decomposition (`é` → `e` + U+0301; `ﬁ` stays).
        case canonical
        /// NFKD: compatibility decomposition (`é` → `e` + U+0301, `ﬁ` → `fi`, `²` → `2`).
        case compatibility
    }

    /// The scalars of `text` in normalization form D (`.canonical`) or KD (`.compatibility`):
    /// the same as Foundation's `decomposedStringWith…Mapping`, in one pass.
    static func decomposition(of text: String, form: Form) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(text.utf8.count)
        // The run of non-starters after the last starter is output[runStart...].
        var runStart = 0
        var lastClass: UInt8 = 0
        var runIsOrdered = true

        func closeRun() {
            guard !runIsOrdered else { return }
            let ordered = output[runStart...].enumerated()
                .sorted { ($0.element.combiningClass, $0.offset) < ($1.element.combiningClass, $1.offset) }
                .map(\.element)
            output.replaceSubrange(runStart..., with: ordered)
            runIsOrdered = true
        }

        var mapping = ScalarMapping { scalar in
            let single = String(scalar)
            return form == .canonical
                ? single.decomposedStringWithCanonicalMapping : single.decomposedStringWithCompatibilityMapping
        }
        func append(_ scalar: Unicode.Scalar, combiningClass: UInt8) {
            if combiningClass == 0 {
                closeRun()
                output.append(scalar)
                runStart = output.count
            } else {
                if combiningClass < lastClass { runIsOrdered = false }
                output.append(scalar)
            }
            lastClass = combiningClass
        }

        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                append(scalar, combiningClass: 0)
            } else {
                for part in mapping[scalar] { append(part, combiningClass: part.combiningClass) }
            }
        }
        closeRun()
        return output
    }

    /// `text` with the diacritics Foundation's `.stripDiacritics` transform removes, removed
    /// (`"Çay Bardağı"` → `"Cay Bardagi"`, `"İ"` → `"I"`; `ı`, `ß` and `ø` carry no diacritic and
    /// stay), scalar by scalar.
    static func strippingDiacritics(_ text: String) -> String {
        var mapping = ScalarMapping { scalar in
            let single = String(scalar)
            return single.applyingTransform(.stripDiacritics, reverse: false) ?? single
        }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.append(scalar)
            } else {
                // One by one: `UnicodeScalarView.append(contentsOf:)` rebuilds the view on every call.
                for part in mapping[scalar] { result.append(part) }
            }
        }
        return String(result)
    }
}

/// A Foundation string function applied to single scalars, each distinct one asked once.
private struct ScalarMapping {
    let transform: (Unicode.Scalar) -> String
    var known: [Unicode.Scalar: [Unicode.Scalar]] = [:]

    init(_ transform: @escaping (Unicode.Scalar) -> String) { self.transform = transform }

    /// The scalars `scalar` maps to (callers map ASCII to itself without asking).
    subscript(scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        mutating get {
            if let mapped = known[scalar] { return mapped }
            let mapped = Array(transform(scalar).unicodeScalars)
            known[scalar] = mapped
            return mapped
        }
    }
}

extension Unicode.Scalar {
    /// The canonical combining class (0 for starters).
    fileprivate var combiningClass: UInt8 { properties.canonicalCombiningClass.rawValue }
}
