extension StringProtocol {
    /// The text without white space (Unicode `White_Space`: blanks, tabs, line breaks, no-break
    /// and ideographic spaces) at either end — what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` returns, without its trip through
    /// `NSString` on Linux, and without copying work when there is nothing to trim. Keys that
    /// an import computes for every row (SKUs, option values) use it (issue #13, point 6).
    /// ```swift
    /// " Nw-WSB-S\n".trimmedOfWhiteSpace  // "Nw-WSB-S"
    /// ```
    public var trimmedOfWhiteSpace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
