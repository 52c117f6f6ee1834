/// How far a shopper's word may be from an indexed word and still find it (typo tolerance), and
/// which indexed words "did you mean" offers: the one home of these rules, for every engine.
///
/// Words are `SearchFolding` words, compared as Unicode scalars.
/// - Typo budget (`allowedEdits(for:)`): no edit in words of 1–4 letters, one in 5–8, two in 9+.
///   One exception (`allowsSwapOnly(_:)`): a word of exactly 4 letters may carry one swap of two
///   adjacent letters and nothing else ("lmap" finds "lamp", "masa" does not find "mesa"). The
///   issue asks both for "one edit in words of 5+ letters" and for "lmap" → Lamp; a swap is the
///   commonest typo of fast typing and keeps the letters, so it is the one edit a 4-letter word
///   can carry without matching unrelated real words (one substitution turns "lamp" into
///   "lamb", "lump", "damp"). Words of 1–3 letters get no typo at all ("mgu" stays "mgu").
/// - Distance (`distance(_:_:limit:)`): optimal string alignment (Damerau–Levenshtein with
///   adjacent transpositions): "lmap"→"lamp" is 1, "chiar"→"chair" 1, "skilet"→"skillet" 1.
/// - Candidates (`candidates(for:among:)`): the vocabulary words within the budget, nearest first,
///   then alphabetically; at most `candidateLimit`. Stores ask their vocabulary only for words
///   starting with the query word's first or second letter (a cheap pre-filter, so a typo in the
///   first letter that is not a swap of the first two is not forgiven).
/// - Suggestions (`suggestion(for:among:)`): for "did you mean", the nearest word within
///   `max(2, allowedEdits)` edits, so short words get a suggestion even with no typo budget.
///
/// ```swift
/// SearchTolerance.allowedEdits(for: "chiar")                      // 1
/// SearchTolerance.candidates(for: "lmap", among: ["lamp", "lamb"])    // ["lamp"]
/// SearchTolerance.candidates(for: "chiar", among: ["chair", "cheap"])  // ["chair"]
/// ```
public enum SearchTolerance {
    /// How many candidates one query word expands to at most.
    public static let candidateLimit = 8

    /// The edits a word of this length may carry and still match: 0 below 5 letters, 1 for
    /// 5–8, 2 for 9 or more.
    public static func allowedEdits(for word: String) -> Int {
        let length = word.unicodeScalars.count
        return length >= 9 ? 2 : length >= 5 ? 1 : 0
    }

    /// The one length whose words may carry an adjacent swap but no other edit.
    public static let swapOnlyLength = 4

    /// Whether `word` may carry one swap of two adjacent letters and no other edit: exactly
    /// `swapOnlyLength` letters ("lmap" → "lamp").
    public static func allowsSwapOnly(_ word: String) -> Bool {
        word.unicodeScalars.count == swapOnlyLength
    }

    /// Whether `word` may find other words through a typo at all (`allowedEdits > 0` or
    /// `allowsSwapOnly`). Stores look up candidates only for these.
    public static func toleratesTypos(_ word: String) -> Bool {
        allowedEdits(for: word) > 0 || allowsSwapOnly(word)
    }

    /// Whether `b` is `a` with exactly one pair of adjacent, different letters swapped.
    public static func isAdjacentSwap(_ a: String, _ b: String) -> Bool {
        let s = Array(a.unicodeScalars), t = Array(b.unicodeScalars)
        guard s.count == t.count, let first = s.indices.first(where: { s[$0] != t[$0] }),
              first + 1 < s.count, s[first] == t[first + 1], s[first + 1] == t[first] else { return false }
        return s[(first + 2)...] == t[(first + 2)...]
    }

    /// The first scalars a vocabulary word must start with to be a candidate for `word`: its
    /// first and second (a swap of the first two letters is one edit).
    public static func leadingScalars(of word: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        for scalar in word.unicodeScalars.prefix(2) where !result.contains(scalar) { result.append(scalar) }
        return result
    }

    /// The vocabulary words within `allowedEdits(for: word)` of `word` (for a 4-letter word: one
    /// adjacent swap away, `allowsSwapOnly`), other than `word` itself, nearest first and then in
    /// code-point order; at most `candidateLimit`.
    public static func candidates(for word: String, among vocabulary: some Sequence<String>) -> [String] {
        if allowsSwapOnly(word) {
            return vocabulary.filter { isAdjacentSwap(word, $0) }
                .sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
                .prefix(candidateLimit).map(\.self)
        }
        return nearest(to: word, among: vocabulary, limit: allowedEdits(for: word), count: candidateLimit)
    }

    /// The vocabulary word "did you mean" offers for `word`: the nearest other word within
    /// `max(2, allowedEdits(for: word))` edits (ties: code-point order); nil when none is.
    public static func suggestion(for word: String, among vocabulary: some Sequence<String>) -> String? {
        nearest(to: word, among: vocabulary, limit: max(2, allowedEdits(for: word)), count: 1).first
    }

    /// The optimal-string-alignment distance between `a` and `b` (insertions, deletions,
    /// substitutions and swaps of adjacent letters, each 1), or nil when it is above `limit`.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        let s = Array(a.unicodeScalars), t = Array(b.unicodeScalars)
        guard abs(s.count - t.count) <= limit else { return nil }
        if s.isEmpty || t.isEmpty { return max(s.count, t.count) }
        var previous2 = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        let result = previous[t.count]
        return result <= limit ? result : nil
    }

    private static func nearest(to word: String, among vocabulary: some Sequence<String>, limit: Int,
                                count: Int) -> [String] {
        guard limit > 0 else { return [] }
        var found: [(distance: Int, word: String)] = []
        for candidate in vocabulary where candidate != word {
            if let distance = distance(word, candidate, limit: limit) { found.append((distance, candidate)) }
        }
        found.sort { left, right in
            left.distance != right.distance
                ? left.distance < right.distance
                : left.word.unicodeScalars.lexicographicallyPrecedes(right.word.unicodeScalars)
        }
        return found.prefix(count).map(\.word)
    }
}
