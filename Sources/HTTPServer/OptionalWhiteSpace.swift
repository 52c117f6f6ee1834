extension BidirectionalCollection where Element == UInt8 {
    /// These bytes without the spaces and tabs around them (RFC 9110 §5.6.3 `OWS`): how the items
    /// and parameters of a header list are read (`Cookie`, `Transfer-Encoding`, `Accept-Encoding`).
    /// On bytes, not `Character`s: headers are read on every request (issue #14).
    @inlinable
    public var trimmingOptionalWhiteSpace: SubSequence {
        let isWhiteSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isWhiteSpace($0) }),
              let last = lastIndex(where: { !isWhiteSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }

    /// Whether these bytes spell `lowercase` in any ASCII case (header tokens, URL schemes):
    /// only `A`–`Z` fold, so no other byte can pass for a letter.
    @inlinable
    public func equalsIgnoringASCIICase(_ lowercase: StaticString) -> Bool {
        lowercase.withUTF8Buffer { expected in
            count == expected.count && zip(self, expected).allSatisfy { byte, letter in
                ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte) == letter
            }
        }
    }
}
