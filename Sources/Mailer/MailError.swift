public import Foundation

/// Why a message could not be delivered or written.
///
/// Carries libcurl's result code and the text of its error buffer (`CURLOPT_ERRORBUFFER`) when
/// the SMTP transport failed, the SMTP server's last reply code when it sent one, or the
/// underlying file-system error text for the files transport.
///
/// ```swift
/// do { try transport.send(message) }
/// catch let error as MailError where !error.isPermanent { /* leave it in the outbox; retry later */ }
/// ```
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Which part of delivery failed. A struct with static members so new kinds can be added
    /// without breaking `switch`es elsewhere.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The message cannot be sent as it is (no recipients, an address with spaces, CR/LF or
        /// angle brackets). Retrying will not help.
        public static let invalidMessage = Kind("invalid message")
        /// libcurl failed: no connection, timeout, TLS, authentication, or the SMTP server
        /// refused a command (see `smtpReplyCode`).
        public static let smtp = Kind("SMTP")
        /// The files transport could not create the directory or write the file.
        public static let file = Kind("file")

        /// The kind's name, e.g. `"SMTP"`.
        public var description: String { name }
    }

    /// Which part of delivery failed.
    public var kind: Kind
    /// libcurl's `CURLcode` for `.smtp` errors (`0` never appears), e.g. `7` = couldn't connect,
    /// `28` = timed out, `67` = login denied, `55` = send error (a refused `MAIL`/`RCPT`);
    /// see <https://curl.se/libcurl/c/libcurl-errors.html>. `nil` for other kinds.
    public var curlCode: Int?
    /// The last SMTP reply code the server sent (RFC 5321 §4.2, e.g. `550`), when there was one.
    public var smtpReplyCode: Int?
    /// A human-readable explanation: curl's error buffer text (falling back to
    /// `curl_easy_strerror`), or the file error's description.
    public var message: String

    /// Creates an error value.
    public init(kind: Kind, message: String, curlCode: Int? = nil, smtpReplyCode: Int? = nil) {
        self.kind = kind
        self.message = message
        self.curlCode = curlCode
        self.smtpReplyCode = smtpReplyCode
    }

    /// `true` when sending the same message again cannot succeed: an invalid message, or a
    /// permanent SMTP reply (5yz, RFC 5321 §4.2.1). Connection failures, timeouts and 4yz
    /// replies are transient.
    public var isPermanent: Bool {
        if kind == .invalidMessage { return true }
        if let smtpReplyCode { return (500..<600).contains(smtpReplyCode) }
        return false
    }

    /// E.g. `"SMTP error (curl 7, reply 550): RCPT failed: 550"` or `"file error: …"`.
    public var description: String {
        var codes: [String] = []
        if let curlCode { codes.append("curl \(curlCode)") }
        if let smtpReplyCode { codes.append("reply \(smtpReplyCode)") }
        let suffix = codes.isEmpty ? "" : " (\(codes.joined(separator: ", ")))"
        return "\(kind) error\(suffix): \(message)"
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}
