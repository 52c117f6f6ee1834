extension Substring.UTF8View {
    /// These bytes without the spaces and tabs around them (RFC 9110 §5.6.3 `OWS`): how the items
    /// and parameters of a header list are read (`Cookie`, `Transfer-Encoding`, `Accept-Encoding`).
    /// On bytes, not `Character`s: headers are read on every request (issue #14).
    public var trimmingOptionalWhiteSpace: Substring.UTF8View {
        let isWhiteSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = firstIndex(where: { !isWhiteSpace($0) }),
              let last = lastIndex(where: { !isWhiteSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
