/// A mailbox: an address (`addr-spec`, RFC 5322 §3.4.1) and an optional human-readable name.
///
/// Rendered in headers as `Name <address>` (the name as atoms, a quoted-string, or RFC 2047
/// encoded-words when it is not plain ASCII), or as the bare `address` without a name.
///
/// ```swift
/// let to = EmailAddress("sule@example.com", displayName: "Şule Öztürk")
/// ```
public struct EmailAddress: Hashable, Sendable {
    /// The `local@domain` part, without angle brackets, e.g. `"sule@example.com"`. ASCII only
    /// (SMTPUTF8 is not supported); the SMTP transport rejects addresses containing spaces,
    /// control characters, `<` or `>`, or no `@`.
    public var address: String
    /// The name shown by mail clients, any Unicode text; `nil` or empty renders the bare address.
    public var displayName: String?

    /// Creates a mailbox.
    /// - Parameters:
    ///   - address: `local@domain`, without angle brackets.
    ///   - displayName: an optional display name (any Unicode).
    public init(_ address: String, displayName: String? = nil) {
        self.address = address
        self.displayName = displayName
    }
}

extension EmailAddress {
    /// `true` when `address` is safe to put in an SMTP command and a header: non-empty printable
    /// ASCII, with no spaces, `<`, `>` or `,`, and an `@` with text on both sides. A deliberately
    /// loose check (no full RFC 5321 grammar): its job is to keep CR/LF and brackets out of the
    /// SMTP envelope.
    var isDeliverable: Bool {
        let bytes = Array(address.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else {
            return false
        }
        return bytes.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: ",")
        }
    }
}
