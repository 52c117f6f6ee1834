extension StringProtocol {
    /// The text without white space (Unicode `White_Space`: blanks, tabs, line breaks, no-break
    /// and ideographic spaces; and U+200B ZERO WIDTH SPACE, as Foundation) at either end — what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, without its trip through
    /// `NSString` on Linux, and without copying work when there is nothing to trim. Keys that
    /// an import computes for every row (SKUs, option values) use it (issue #13, point 6).
    /// ```swift
    /// " Nw-WSB-S\n".trimmedOfWhiteSpace  // "Nw-WSB-S"
    /// ```
    public var trimmedOfWhiteSpace: String {
        let scalars = unicodeScalars
        let isKept: (Unicode.Scalar) -> Bool = { !$0.properties.isWhitespace && $0 != "\u{200B}" }
        guard let first = scalars.firstIndex(where: isKept), let last = scalars.lastIndex(where: isKept) else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
