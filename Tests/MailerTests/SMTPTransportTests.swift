import Foundation
import Mailer
import Testing

@Suite("SMTP transport")
struct SMTPTransportTests {
    static func message(to: [EmailAddress]) -> EmailMessage {
        EmailMessage(
            from: EmailAddress("shop@shop.example", displayName: "Shoppable"),
            to: to,
            subject: "Siparişiniz alındı",
            // Lines starting with "." make libcurl dot-stuff them (RFC 5321 §4.5.2).
            textBody: "Merhaba Şule,\n.\n..two dots\n.one dot\nThanks.\n",
            htmlBody: "<p>Merhaba</p>\n.",
            messageID: "order-42@shop.example",
            date: Date(timeIntervalSince1970: 1_704_164_645)
        )
    }

    @Test func deliversEnvelopeAndTheRenderedBytesToTheServer() throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let recipients = [EmailAddress("sule@example.com", displayName: "Şule Öztürk"), EmailAddress("ops@example.com")]
        let message = Self.message(to: recipients)

        try MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 10).send(message)

        let deliveries = sink.deliveries
        #expect(deliveries.count == 1)
        let delivery = try #require(deliveries.first)
        #expect(delivery.mailFrom == "shop@shop.example")
        #expect(delivery.recipients == ["sule@example.com", "ops@example.com"])
        #expect(String(decoding: delivery.data, as: UTF8.self) == String(decoding: message.rendered(), as: UTF8.self))
    }

    /// An address with non-ASCII letters, which the shop accepts (`EmailRules`), is delivered:
    /// its domain in ASCII form (IDNA, by libcurl), its local part as UTF-8 under `SMTPUTF8`,
    /// and the `To:` header names it as it is (a fresh tester's Turkish address was refused as
    /// "not a deliverable address" and its account could never be confirmed).
    @Test func anAddressWithNonASCIILettersIsDeliveredUnderSMTPUTF8() throws {
        let sink = try SMTPSink(offersUTF8: true)
        defer { sink.stop() }
        let recipients = [EmailAddress("mehmet@örnek.com.tr", displayName: "Mehmet"), EmailAddress("josé@example.com")]
        let message = Self.message(to: recipients)

        try MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 10).send(message)

        let delivery = try #require(sink.deliveries.first)
        #expect(delivery.recipients == ["mehmet@örnek.com.tr", "josé@example.com"])
        #expect(delivery.mailParameters.contains("SMTPUTF8"))
        let headers = String(decoding: delivery.data, as: UTF8.self)
        #expect(headers.contains("<mehmet@örnek.com.tr>") && headers.contains("josé@example.com"))
    }

    @Test func oneTransportDeliversSeveralMessagesInTurn() throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let transport = MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 10)
        let messages = (1...3).map { index in
            var message = Self.message(to: [EmailAddress("customer\(index)@example.com")])
            message.messageID = "order-\(index)@shop.example"
            return message
        }

        for message in messages { try transport.send(message) }

        #expect(sink.deliveries.map(\.recipients) == [["customer1@example.com"], ["customer2@example.com"], ["customer3@example.com"]])
        #expect(sink.deliveries.map { String(decoding: $0.data, as: UTF8.self) }
            == messages.map { String(decoding: $0.rendered(), as: UTF8.self) })
    }

    @Test func aRejectedRecipientThrowsAPermanentErrorWithTheReplyCode() throws {
        let sink = try SMTPSink(rejecting: ["nobody@example.com"])
        defer { sink.stop() }
        let transport = MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 10)

        let error = try #require(throws: MailError.self) {
            try transport.send(Self.message(to: [EmailAddress("nobody@example.com")]))
        }
        #expect(error.kind == .smtp)
        #expect(error.smtpReplyCode == 550)
        #expect(error.isPermanent)
        #expect(error.description.contains("550"))
        #expect(sink.deliveries.isEmpty)
    }

    @Test func aRefusedConnectionThrowsATransientErrorInsteadOfHanging() throws {
        let transport = MailTransport.smtp(url: try SMTPSink.refusingURL(), timeout: 2)

        let error = try #require(throws: MailError.self) {
            try transport.send(Self.message(to: [EmailAddress("sule@example.com")]))
        }
        #expect(error.kind == .smtp)
        #expect(error.curlCode == 7) // CURLE_COULDNT_CONNECT
        #expect(!error.message.isEmpty)
        #expect(!error.isPermanent)
    }

    @Test func aServerThatNeverAnswersTimesOutInsteadOfHanging() throws {
        let sink = try SMTPSink(greets: false)
        defer { sink.stop() }
        let transport = MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 1)

        let error = try #require(throws: MailError.self) {
            try transport.send(Self.message(to: [EmailAddress("sule@example.com")]))
        }
        #expect(error.curlCode == 28) // CURLE_OPERATION_TIMEDOUT
        #expect(!error.isPermanent)
        #expect(sink.deliveries.isEmpty)
    }

    @Test(arguments: [
        [EmailAddress("sule@example.com\r\nRCPT TO:<victim@example.com>")],
        [EmailAddress("no-at-sign")],
        [EmailAddress("<sule@example.com>")],
        [],
    ])
    func anUnsafeAddressOrNoRecipientIsRefusedBeforeConnecting(recipients: [EmailAddress]) throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        let transport = MailTransport.smtp(url: "smtp://127.0.0.1:\(sink.port)", timeout: 5)

        let error = try #require(throws: MailError.self) { try transport.send(Self.message(to: recipients)) }
        #expect(error.kind == .invalidMessage)
        #expect(error.isPermanent)
        #expect(sink.deliveries.isEmpty)
    }

    @Test func aNonSMTPURLIsRefusedByLibcurl() throws {
        let transport = MailTransport.smtp(url: "file:///etc/passwd", timeout: 2)

        let error = try #require(throws: MailError.self) {
            try transport.send(Self.message(to: [EmailAddress("sule@example.com")]))
        }
        #expect(error.kind == .smtp)
        #expect(error.curlCode == 1) // CURLE_UNSUPPORTED_PROTOCOL
    }
}
