/// A mailbox: an address (`addr-spec`, RFC 5322 §3.4.1) and an optional human-readable name.
///
/// Rendered in headers as `Name <address>` (the name as atoms, a quoted-string, or RFC 2047
/// encoded-words when it is not plain ASCII), or as the bare `address` without a name.
///
/// ```swift
/// let to = EmailAddress("sule@example.com", displayName: "Şule Öztürk")
/// ```
public struct EmailAddress: Hashable, Sendable {
    /// The `local@domain` part, without angle brackets, e.g. `"sule@example.com"`. May hold
    /// non-ASCII letters (`josé@örnek.com.tr`, RFC 6531): libcurl writes an internationalized
    /// domain in its ASCII form (IDNA, through libidn2) and asks for `SMTPUTF8` when the server
    /// offers it; a non-ASCII local part needs a server that does. The SMTP transport rejects
    /// addresses containing spaces, control or invisible characters, `<`, `>` or `,`, or no `@`.
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
    /// `true` when `address` is safe to put in an SMTP command and a header: non-empty, with no
    /// spaces, control or invisible characters, `<`, `>` or `,`, and an `@` with text on both
    /// sides. A deliberately loose check (no full RFC 5321 grammar): its job is to keep CR/LF
    /// and brackets out of the SMTP envelope and the headers.
    var isDeliverable: Bool {
        guard let at = address.lastIndex(of: "@"), at != address.startIndex,
              address.index(after: at) != address.endIndex else { return false }
        return address.unicodeScalars.allSatisfy(Self.belongsInAddress)
    }

    /// Whether `scalar` may stand in an address as sent and as written in a header: printable
    /// ASCII but the space, `<`, `>` and `,`, or a non-ASCII letter, mark, digit, symbol or
    /// punctuation (not a control, format, separator or private-use character).
    static func belongsInAddress(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return scalar.value > 0x20 && scalar.value < 0x7F && scalar != "<" && scalar != ">" && scalar != ","
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return false
        default:
            return true
        }
    }
}
