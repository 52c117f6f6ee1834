public import Foundation

/// An email ready to render: sender, recipients, subject, a plain-text body and an optional HTML
/// alternative.
///
/// ```swift
/// let message = EmailMessage(
///     from: EmailAddress("shop@example.com", displayName: "Shoppable"),
///     to: [EmailAddress("sule@example.com", displayName: "Şule Öztürk")],
///     subject: "Siparişiniz alındı",
///     textBody: "Thank you!\n",
///     messageID: "order-42@example.com",
///     date: now
/// )
/// try transport.send(message)
/// ```
public struct EmailMessage: Hashable, Sendable {
    /// The author and envelope sender (`From:` and SMTP `MAIL FROM`).
    public var from: EmailAddress
    /// The recipients (`To:` and one SMTP `RCPT TO` each). The SMTP transport needs at least one.
    public var to: [EmailAddress]
    /// The subject, any Unicode; line breaks and other control characters become spaces and runs
    /// of whitespace collapse to one space when rendered.
    public var subject: String
    /// The plain-text body, any Unicode; line breaks may be LF, CRLF or CR.
    public var textBody: String
    /// An HTML body; when set, the message is `multipart/alternative` with the text part first
    /// (RFC 2046 §5.1.4: the last part is the preferred one).
    public var htmlBody: String?
    /// The `Message-ID` without angle brackets, e.g. `"order-42.1@shop.example"`; an `@domain`
    /// taken from `from` is appended when it has none. When `nil`, an ID is derived from the
    /// message's content and date, so rendering twice gives the same bytes; set it (e.g. from
    /// the outbox row) when two identical messages must still get distinct IDs.
    public var messageID: String?
    /// The `Date:` header (the moment the message was composed), rendered in UTC.
    public var date: Date

    /// Creates a message.
    /// - Parameters:
    ///   - from: the author and envelope sender.
    ///   - to: the recipients.
    ///   - subject: the subject line.
    ///   - textBody: the plain-text body.
    ///   - htmlBody: an optional HTML alternative.
    ///   - messageID: the `Message-ID` without angle brackets, or `nil` to derive one.
    ///   - date: the `Date:` header; pass the app's clock (`environment.now()`) for
    ///     reproducible output.
    public init(
        from: EmailAddress,
        to: [EmailAddress],
        subject: String,
        textBody: String,
        htmlBody: String? = nil,
        messageID: String? = nil,
        date: Date = Date()
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.messageID = messageID
        self.date = date
    }

    /// The message as RFC 5322 bytes, ready for SMTP `DATA` or an `.eml` file.
    ///
    /// - CRLF line endings everywhere; no bare CR or LF.
    /// - Headers `Date`, `From`, `To` (omitted when `to` is empty), `Subject`, `Message-ID`,
    ///   `MIME-Version`, `Content-Type`, `Content-Transfer-Encoding`, folded at whitespace so
    ///   lines stay ≤ 78 characters (≤ 76 on lines carrying encoded-words, RFC 2047 §2); only a
    ///   single address longer than that can overflow.
    /// - Non-ASCII header text (subject, display names) as RFC 2047 encoded-words
    ///   `=?UTF-8?B?…?=`, each ≤ 75 characters and never splitting a Unicode scalar.
    /// - Bodies UTF-8, quoted-printable (RFC 2045 §6.7) with lines ≤ 76 characters;
    ///   `multipart/alternative` (text, then HTML) when `htmlBody` is set, with a boundary
    ///   starting `=_`, which quoted-printable output can never contain.
    /// - `Date` in the RFC 5322 §3.3 format in UTC with English names (as `en_US_POSIX`),
    ///   e.g. `Tue, 02 Jan 2024 03:04:05 +0000`.
    /// - Dot-stuffing is left to the transport (libcurl does it for SMTP).
    /// - Returns: the complete message, ending with CRLF.
    public func rendered() -> [UInt8] {
        MessageRenderer(message: self).render()
    }

    /// The `Message-ID` value without angle brackets: `messageID` cleaned of whitespace,
    /// control characters and brackets (with `@domain` appended when missing), or the derived
    /// ID. Used by `rendered()` and for `.eml` file names.
    var effectiveMessageID: String {
        let domain = MessageRenderer.domain(of: from.address)
        if let messageID {
            var cleaned = String(String.UnicodeScalarView(messageID.unicodeScalars.filter { scalar in
                scalar.value > 0x20 && scalar.value < 0x7F && scalar != "<" && scalar != ">"
            }))
            if cleaned.isEmpty { cleaned = contentDigest(seed: 1) }
            return cleaned.contains("@") ? cleaned : "\(cleaned)@\(domain)"
        }
        return "\(contentDigest(seed: 1)).\(Int64(date.timeIntervalSince1970.rounded(.down)))@\(domain)"
    }

    /// 128 bits (two FNV-1a 64 hashes) of every field but `messageID`, as 32 hex digits; the same
    /// on every run and platform, unlike `Hasher`.
    func contentDigest(seed: UInt64) -> String {
        var first = FNV1a(seed: seed)
        var second = FNV1a(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        func feed(_ text: String) {
            first.add(text.utf8)
            first.add([0])
            second.add(text.utf8)
            second.add([0xFF])
        }
        feed(from.address)
        feed(from.displayName ?? "")
        for recipient in to {
            feed(recipient.address)
            feed(recipient.displayName ?? "")
        }
        feed(subject)
        feed(textBody)
        feed(htmlBody ?? "")
        feed(String(date.timeIntervalSince1970.bitPattern))
        return first.hex + second.hex
    }
}

/// FNV-1a, 64-bit (<http://www.isthe.com/chongo/tech/comp/fnv/>), with the offset basis mixed
/// with a seed so two instances give independent halves of a longer digest.
struct FNV1a {
    private(set) var value: UInt64

    init(seed: UInt64) {
        value = 0xCBF2_9CE4_8422_2325 ^ (seed &* 0x0100_0000_01B3)
    }

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0100_0000_01B3
        }
    }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
