/// A CLDR plural category (Unicode TR 35, "Language Plural Rules"): which form of a counted
/// phrase a number takes in a language. A string table names its forms by these.
public enum PluralCategory: String, CaseIterable, Hashable, Sendable {
    case zero, one, two, few, many, other
}

extension Language {
    /// The CLDR cardinal plural category of the whole number `count` in this language (CLDR 46):
    ///
    /// | language | one | many | other |
    /// |---|---|---|---|
    /// | English | `i = 1 and v = 0` | — | everything else |
    /// | Turkish | `n = 1` | — | everything else |
    /// | Spanish | `n = 1` | `i != 0 and i % 1000000 = 0 and v = 0` | everything else |
    ///
    /// For whole numbers (`v = 0`) English and Turkish differ only in name; Spanish says
    /// "1 000 000 **de** productos", its `many`, which a table may leave to `other`.
    /// - Parameter count: the number counted (negative numbers take the category of their size).
    /// - Returns: the category whose form the phrase takes.
    public func pluralCategory(_ count: Int) -> PluralCategory {
        let n = count.magnitude
        switch self {
        case .english, .turkish:
            return n == 1 ? .one : .other
        case .spanish:
            if n == 1 { return .one }
            return n != 0 && n % 1_000_000 == 0 ? .many : .other
        }
    }
}
