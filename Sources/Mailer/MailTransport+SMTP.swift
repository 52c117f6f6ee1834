import CCurl
import Foundation

extension MailTransport {
    /// SMTP through libcurl: `url` like `smtp://127.0.0.1:1025`, `smtps://…`, or
    /// `smtp://user:pass@host:587` (STARTTLS when the server offers it: `CURLOPT_USE_SSL` =
    /// `CURLUSESSL_TRY`), timeouts in seconds.
    ///
    /// Each `send` uses its own libcurl easy handle, so one transport may be used from several
    /// threads; it blocks until the server accepted the message (`250` after `DATA`) or failed.
    /// The envelope is `MAIL FROM:<message.from.address>` and one `RCPT TO` per `message.to`
    /// address; the data is `message.rendered()`, dot-stuffed by libcurl. An optional URL path
    /// sets the `EHLO` name (`smtp://host/shop.example`). Only the `smtp` and `smtps` schemes
    /// are allowed.
    ///
    /// - Parameters:
    ///   - url: the server URL; credentials, if any, are percent-encoded in it.
    ///   - timeout: the limit in seconds for connecting and, separately, for the whole exchange
    ///     (`CURLOPT_CONNECTTIMEOUT_MS`, `CURLOPT_TIMEOUT_MS`); `0` or less means no limit.
    /// - Throws (from `send`): `MailError` of kind `.invalidMessage` when there are no
    ///   recipients or an address is unsafe for the SMTP envelope (see `EmailAddress.address`),
    ///   and of kind `.smtp` with curl's code, error text and the server's last reply code
    ///   when delivery fails.
    public static func smtp(url: String, timeout: Double = 30) -> MailTransport {
        MailTransport { message in
            try SMTPDelivery(url: url, timeout: timeout).send(message)
        }
    }
}

/// One libcurl SMTP delivery. Keeps every libcurl pointer and `CURLcode` inside this file.
private struct SMTPDelivery {
    let url: String
    let timeout: Double

    func send(_ message: EmailMessage) throws(MailError) {
        guard !message.to.isEmpty else {
            throw MailError(kind: .invalidMessage, message: "the message has no recipients")
        }
        for mailbox in [message.from] + message.to where !mailbox.isDeliverable {
            throw MailError(kind: .invalidMessage, message: "not a deliverable address: \(mailbox.address.debugDescription)")
        }
        let globalStatus = curlGlobalInitStatus
        guard globalStatus == CURLE_OK else {
            throw MailError(kind: .smtp, message: "curl_global_init failed: \(Self.text(of: globalStatus))",
                            curlCode: Int(globalStatus.rawValue))
        }
        var recipients: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(recipients) }
        for mailbox in message.to {
            guard let appended = curl_slist_append(recipients, "<\(mailbox.address)>") else {
                throw MailError(kind: .smtp, message: "curl_slist_append failed (out of memory)")
            }
            recipients = appended
        }

        // libcurl may use the error buffer, the recipient list and the upload source until the
        // handle is cleaned up, so they are made first: defers run in reverse order, and the
        // handle's cleanup comes before their release.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        let upload = UploadSource(bytes: message.rendered())
        try withExtendedLifetime(upload) { () throws(MailError) in
            guard let handle = curl_easy_init() else {
                throw MailError(kind: .smtp, message: "curl_easy_init failed")
            }
            defer { curl_easy_cleanup(handle) }

            let context = Unmanaged.passUnretained(upload).toOpaque()
            let milliseconds = timeout > 0 ? max(1, Int(min(timeout * 1000, Double(Int32.max)))) : 0
            let options: [(String, () -> CURLcode)] = [
                ("ERRORBUFFER", { shoppable_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer) }),
                ("URL", { shoppable_curl_setopt_string(handle, CURLOPT_URL, url) }),
                ("PROTOCOLS_STR", { shoppable_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps") }),
                ("NOSIGNAL", { shoppable_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1) }),
                ("USE_SSL", { shoppable_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(CURLUSESSL_TRY.rawValue)) }),
                ("CONNECTTIMEOUT_MS", { shoppable_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds) }),
                ("TIMEOUT_MS", { shoppable_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds) }),
                ("MAIL_FROM", { shoppable_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(message.from.address)>") }),
                ("MAIL_RCPT", { shoppable_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients) }),
                ("UPLOAD", { shoppable_curl_setopt_long(handle, CURLOPT_UPLOAD, 1) }),
                ("READFUNCTION", { shoppable_curl_setopt_read_callback(handle, CURLOPT_READFUNCTION, uploadReadCallback) }),
                ("READDATA", { shoppable_curl_setopt_pointer(handle, CURLOPT_READDATA, context) }),
                ("INFILESIZE_LARGE", { shoppable_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(upload.bytes.count)) }),
            ]
            for (name, setOption) in options {
                let status = setOption()
                guard status == CURLE_OK else {
                    throw MailError(kind: .smtp, message: "setting CURLOPT_\(name) failed: \(Self.text(of: status))",
                                    curlCode: Int(status.rawValue))
                }
            }

            let status = curl_easy_perform(handle)
            guard status == CURLE_OK else {
                var reply = 0
                let replyStatus = shoppable_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
                let buffered = String(cString: errorBuffer)
                throw MailError(
                    kind: .smtp,
                    message: buffered.isEmpty ? Self.text(of: status) : buffered,
                    curlCode: Int(status.rawValue),
                    smtpReplyCode: replyStatus == CURLE_OK && reply > 0 ? reply : nil
                )
            }
        }
    }

    /// `curl_easy_strerror`'s text for a code.
    private static func text(of status: CURLcode) -> String {
        String(cString: curl_easy_strerror(status))
    }
}

/// `curl_global_init(CURL_GLOBAL_DEFAULT)`, run once per process on first use (Swift
/// initializes globals lazily and exactly once, even with concurrent first calls).
private let curlGlobalInitStatus: CURLcode = shoppable_curl_global_init_default()

/// The bytes being uploaded and how many libcurl has taken; reached from the read callback
/// through `CURLOPT_READDATA`. Used by one transfer on one thread only.
private final class UploadSource {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// libcurl's `CURLOPT_READFUNCTION`: copies up to `size × count` bytes of the upload into
/// `buffer` and returns how many; `0` ends the upload. A top-level function (no captured
/// context) so it converts to a C function pointer; its context arrives in `userdata`.
private func uploadReadCallback(
    buffer: UnsafeMutablePointer<CChar>?,
    size: Int,
    count: Int,
    userdata: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let userdata else { return 0 }
    let source = Unmanaged<UploadSource>.fromOpaque(userdata).takeUnretainedValue()
    let length = min(size * count, source.bytes.count - source.offset)
    guard length > 0 else { return 0 }
    source.bytes.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + source.offset, byteCount: length)
    }
    source.offset += length
    return length
}
