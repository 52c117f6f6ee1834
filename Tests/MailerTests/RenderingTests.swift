import Foundation
import Mailer
import Testing

@Suite("Email rendering")
struct RenderingTests {
    static let date = Date(timeIntervalSince1970: 1_704_164_645) // 2024-01-02 03:04:05 UTC

    static func message(
        to: [EmailAddress] = [EmailAddress("sule@example.com", displayName: "Şule Öztürk")],
        subject: String = "Your order",
        textBody: String = "Thank you for your order.\n",
        htmlBody: String? = nil,
        messageID: String? = "order-42@shop.example"
    ) -> EmailMessage {
        EmailMessage(
            from: EmailAddress("shop@shop.example", displayName: "Shoppable"),
            to: to,
            subject: subject,
            textBody: textBody,
            htmlBody: htmlBody,
            messageID: messageID,
            date: date
        )
    }

    /// The body of the only text part, decoded, as a string.
    static func decodedBody(_ parsed: ParsedMessage) -> String {
        String(decoding: decodeQuotedPrintable(parsed.body), as: UTF8.self)
    }

    static func hasBareCROrLF(_ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0D, index + 1 >= bytes.count || bytes[index + 1] != 0x0A { return true }
            if byte == 0x0A, index == 0 || bytes[index - 1] != 0x0D { return true }
        }
        return false
    }

    @Test func headersArePresentWithMIMEDeclarations() {
        let parsed = ParsedMessage(Self.message().rendered())
        #expect(parsed.field("From") == "Shoppable <shop@shop.example>")
        #expect(parsed.decodedField("To") == "Şule Öztürk <sule@example.com>")
        #expect(parsed.field("Subject") == "Your order")
        #expect(parsed.field("Message-ID") == "<order-42@shop.example>")
        #expect(parsed.field("MIME-Version") == "1.0")
        #expect(parsed.field("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parsed.field("Content-Transfer-Encoding") == "quoted-printable")
        #expect(parsed.field("Date") != nil)
    }

    @Test(arguments: [0, 951_782_400, 1_704_164_645, 1_735_689_599, -1_000_000_000] as [TimeInterval])
    func dateHeaderMatchesTheRFC5322FormatInPOSIXLocale(seconds: TimeInterval) {
        var message = Self.message()
        message.date = Date(timeIntervalSince1970: seconds)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        #expect(ParsedMessage(message.rendered()).field("Date") == formatter.string(from: message.date))
    }

    @Test(arguments: [
        "Line one\nLine two\n",
        "Windows\r\nline\r\nendings",
        "Old Mac\rline\rendings\r",
        "Mixed\n\r\n\r\nbreaks \n\n",
        "",
    ])
    func everyLineEndsWithCRLFAndNoBareLFOrCRRemains(body: String) {
        let plain = Self.message(textBody: body).rendered()
        let multipart = Self.message(textBody: body, htmlBody: "<p>\(body)</p>").rendered()
        #expect(!Self.hasBareCROrLF(plain))
        #expect(!Self.hasBareCROrLF(multipart))
        #expect(plain.suffix(2) == [0x0D, 0x0A])
    }

    @Test func lineBreaksInHeaderTextCannotInjectHeaders() {
        let message = Self.message(
            to: [EmailAddress("a@example.com\r\nBcc: victim@example.com", displayName: "Eve\r\nBcc: x@example.com")],
            subject: "Hello\r\nBcc: victim@example.com\nX-Evil: 1"
        )
        let parsed = ParsedMessage(message.rendered())
        #expect(!Self.hasBareCROrLF(message.rendered()))
        #expect(parsed.field("Bcc") == nil)
        #expect(parsed.field("X-Evil") == nil)
        #expect(parsed.decodedField("Subject") == "Hello Bcc: victim@example.com X-Evil: 1")
    }

    @Test func nonASCIIDisplayNameBecomesUTF8EncodedWords() throws {
        let rendered = Self.message().rendered()
        let parsed = ParsedMessage(rendered)
        let to = try #require(parsed.field("To"))
        #expect(to.hasPrefix("=?UTF-8?B?"))
        #expect(to.hasSuffix("?= <sule@example.com>"))
        #expect(!to.contains("Ş"))
        #expect(parsed.headerLines.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
        #expect(decodeEncodedWords(to) == "Şule Öztürk <sule@example.com>")
    }

    @Test(arguments: [
        ("Shoppable", "Shoppable <shop@shop.example>"),
        ("Shoppable Inc.", "\"Shoppable Inc.\" <shop@shop.example>"),
        ("Say \"hi\" \\ bye", "\"Say \\\"hi\\\" \\\\ bye\" <shop@shop.example>"),
        ("", "shop@shop.example"),
    ])
    func asciiDisplayNamesAreAtomsOrQuotedStrings(name: String, expected: String) {
        var message = Self.message()
        message.from = EmailAddress("shop@shop.example", displayName: name)
        #expect(ParsedMessage(message.rendered()).field("From") == expected)
    }

    @Test(arguments: ["Siparişiniz hazır", "ğ", "Ödeme onayı — sipariş #42 🛒", "=?UTF-8?B?Zm9v?= is not a word"])
    func subjectWithNonASCIIOrEncodedWordLookalikeIsEncodedAndRoundTrips(subject: String) throws {
        let parsed = ParsedMessage(Self.message(subject: subject).rendered())
        let raw = try #require(parsed.field("Subject"))
        #expect(raw.hasPrefix("=?UTF-8?B?"))
        #expect(raw.utf8.allSatisfy { $0 < 0x80 })
        #expect(decodeEncodedWords(raw) == subject)
    }

    @Test(arguments: [
        String(repeating: "Your order from Shoppable has shipped and is on its way ", count: 4) + "today",
        String(repeating: "Siparişiniz kargoya verildi ve yola çıktı, ğüşıöç ", count: 5),
        "Reference " + String(repeating: "X", count: 120),
    ])
    func longSubjectIsFoldedWithinLineLimitsAndRoundTrips(subject: String) throws {
        let parsed = ParsedMessage(Self.message(subject: subject).rendered())
        let start = try #require(parsed.headerLines.firstIndex { $0.hasPrefix("Subject:") })
        let subjectLines = [parsed.headerLines[start]]
            + parsed.headerLines[(start + 1)...].prefix { $0.hasPrefix(" ") }
        #expect(subjectLines.count > 1)
        for line in subjectLines {
            #expect(line.utf8.count <= (line.contains("=?") ? 76 : 78), "\(line)")
        }
        #expect(parsed.headerLines.allSatisfy { $0.utf8.count <= 78 })
        let cleaned = subject.split(separator: " ").joined(separator: " ")
        #expect(parsed.decodedField("Subject") == cleaned)
    }

    @Test func manyRecipientsAreFoldedBetweenAddresses() {
        let recipients = (1...12).map { EmailAddress("customer\($0)@example.com", displayName: $0.isMultiple(of: 2) ? "Müşteri \($0)" : nil) }
        let parsed = ParsedMessage(Self.message(to: recipients).rendered())
        #expect(parsed.headerLines.allSatisfy { $0.utf8.count <= 78 })
        #expect(parsed.headerLines.filter { $0.hasPrefix(" ") }.count >= 3)
        let expected = recipients.map { mailbox in
            mailbox.displayName.map { "\($0) <\(mailbox.address)>" } ?? mailbox.address
        }.joined(separator: ", ")
        #expect(parsed.decodedField("To") == expected)
    }

    @Test func bodyIsQuotedPrintableWithShortLinesAndRoundTrips() {
        let longLine = String(repeating: "Şule paid 1=1 for ğ items; ", count: 12)
        let body = "Price = 10 €\nTrailing space \n\(longLine)\n.leading dot\nTab\tend\t"
        let parsed = ParsedMessage(Self.message(textBody: body).rendered())
        let bodyLines = parsed.body.components(separatedBy: "\r\n")
        #expect(bodyLines.allSatisfy { $0.utf8.count <= 76 })
        #expect(parsed.body.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || [0x09, 0x0D, 0x0A].contains($0) })
        #expect(parsed.body.contains("Tab\tend=09\r\n"))
        #expect(parsed.body.hasPrefix("Price =3D 10 =E2=82=AC\r\nTrailing space=20\r\n"))
        #expect(bodyLines.contains { $0.hasSuffix("=") })
        #expect(Self.decodedBody(parsed) == body.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
    }

    @Test func htmlBodyMakesMultipartAlternativeWithTextFirst() throws {
        let text = "Hello Şule,\nyour order shipped.\n"
        let html = "<p class=\"greeting\">Hello Şule,</p>\n<p>your order shipped.</p>\n"
        let parsed = ParsedMessage(Self.message(textBody: text, htmlBody: html).rendered())
        let contentType = try #require(parsed.field("Content-Type"))
        #expect(contentType.hasPrefix("multipart/alternative;"))
        let boundaryStart = try #require(contentType.range(of: "boundary=\""))
        let boundary = String(contentType[boundaryStart.upperBound...].dropLast())
        #expect(!boundary.isEmpty && boundary.utf8.count <= 70)
        let sections = parsed.body.components(separatedBy: "--\(boundary)")
        #expect(sections.count == 4) // preamble, text part, html part, "--" epilogue
        #expect(sections.last == "--\r\n")
        let parts = sections[1...2].map { ParsedMessage(Array($0.utf8.dropFirst(2))) }
        #expect(parts[0].field("Content-Type") == "text/plain; charset=UTF-8")
        #expect(parts[1].field("Content-Type") == "text/html; charset=UTF-8")
        #expect(parts.allSatisfy { $0.field("Content-Transfer-Encoding") == "quoted-printable" })
        #expect(String(decoding: decodeQuotedPrintable(parts[0].body), as: UTF8.self)
            == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(String(decoding: decodeQuotedPrintable(parts[1].body), as: UTF8.self)
            == html.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(parsed.headerLines.allSatisfy { $0.utf8.count <= 78 })
    }

    @Test func derivedMessageIDIsStableAndDependsOnContent() throws {
        let first = Self.message(messageID: nil)
        var second = first
        second.subject = "Another order"
        let id = try #require(ParsedMessage(first.rendered()).field("Message-ID"))
        #expect(first.rendered() == first.rendered())
        #expect(id.hasPrefix("<") && id.hasSuffix("@shop.example>"))
        #expect(ParsedMessage(second.rendered()).field("Message-ID") != id)
    }

    @Test(arguments: [("abc123", "<abc123@shop.example>"), ("<x@y.example>", "<x@y.example>"), ("a b@c", "<ab@c>")])
    func givenMessageIDIsBracketedAndCompleted(given: String, expected: String) {
        #expect(ParsedMessage(Self.message(messageID: given).rendered()).field("Message-ID") == expected)
    }
}
