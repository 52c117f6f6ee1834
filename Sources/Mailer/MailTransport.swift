public import Foundation

/// Delivers messages. A struct of closures so the app can swap SMTP, files, or a test double.
///
/// ```swift
/// let transport: MailTransport = smtpURL.map { .smtp(url: $0) }
///     ?? .files(directory: varDirectory.appending(path: "outbox"), onWrite: { logger.info("wrote \($0)") })
/// try transport.send(message)
/// ```
///
/// `send` blocks until the message is handed over (or written); call it from a background
/// worker, never from a request handler.
public struct MailTransport: Sendable {
    /// Delivers one message.
    /// - Throws: `MailError` when the message was not delivered.
    public var send: @Sendable (EmailMessage) throws -> Void

    /// Creates a transport from a send function (test doubles, other backends).
    public init(send: @escaping @Sendable (EmailMessage) throws -> Void) {
        self.send = send
    }

    /// Writes each message as `<date>-<message-id>.eml` in `directory` (created if needed) and
    /// returns; `onWrite` gets the file path (the app logs it).
    ///
    /// The file holds exactly `message.rendered()`. `<date>` is the message's `Date` in UTC as
    /// `yyyyMMdd'T'HHmmss'Z'` (so a listing sorts by time); `<message-id>` is the `Message-ID`
    /// with every character but ASCII letters, digits, `.`, `_`, `-`, `+` and `@` replaced by
    /// `_`, cut to 150 characters. Files are written atomically (temporary file, then rename), and
    /// a message with the same date and ID replaces the earlier file.
    /// - Parameters:
    ///   - directory: a file URL of the directory to write into.
    ///   - onWrite: called with each written file's path.
    /// - Throws (from `send`): `MailError` of kind `.file` when the directory cannot be created
    ///   or the file cannot be written.
    public static func files(
        directory: URL,
        onWrite: @escaping @Sendable (String) -> Void = { _ in }
    ) -> MailTransport {
        MailTransport { message in
            let file = directory.appending(path: emlFileName(for: message), directoryHint: .notDirectory)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(message.rendered()).write(to: file, options: .atomic)
            } catch {
                throw MailError(kind: .file, message: "cannot write \(file.path): \(error.localizedDescription)")
            }
            onWrite(file.path)
        }
    }

    /// `20240102T030405Z-order-42@shop.example.eml`.
    static func emlFileName(for message: EmailMessage) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: message.date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let stamp = padded(parts.year, 4) + padded(parts.month, 2) + padded(parts.day, 2) + "T"
            + padded(parts.hour, 2) + padded(parts.minute, 2) + padded(parts.second, 2) + "Z"
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+@".unicodeScalars)
        var id = String(String.UnicodeScalarView(message.effectiveMessageID.unicodeScalars.map { allowed.contains($0) ? $0 : "_" }))
        if id.unicodeScalars.count > 150 { id = String(String.UnicodeScalarView(id.unicodeScalars.prefix(150))) }
        return "\(stamp)-\(id).eml"
    }
}
