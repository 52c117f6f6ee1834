import Foundation

/// Renders an `EmailMessage` to RFC 5322 bytes; see `EmailMessage.rendered()` for the rules.
struct MessageRenderer {
    let message: EmailMessage

    func render() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024 + message.textBody.utf8.count * 2 + (message.htmlBody?.utf8.count ?? 0) * 2)
        func line(_ text: String) {
            out.append(contentsOf: text.utf8)
            out.append(contentsOf: Self.crlf)
        }

        line("Date: \(Self.rfc5322Date(message.date))")
        out.append(contentsOf: Self.addressHeader("From", [message.from]).utf8)
        if !message.to.isEmpty {
            out.append(contentsOf: Self.addressHeader("To", message.to).utf8)
        }
        out.append(contentsOf: Self.subjectHeader(message.subject).utf8)
        line("Message-ID: <\(message.effectiveMessageID)>")
        line("MIME-Version: 1.0")

        guard let htmlBody = message.htmlBody else {
            line("Content-Type: text/plain; charset=UTF-8")
            line("Content-Transfer-Encoding: quoted-printable")
            line("")
            Self.appendQuotedPrintableBody(message.textBody, to: &out)
            return out
        }

        let boundary = "=_" + message.contentDigest(seed: 2)
        var contentType = HeaderFolder(name: "Content-Type")
        contentType.add("multipart/alternative;")
        contentType.add("boundary=\"\(boundary)\"")
        out.append(contentsOf: contentType.finish().utf8)
        line("")
        for (mediaType, body) in [("text/plain", message.textBody), ("text/html", htmlBody)] {
            line("--\(boundary)")
            line("Content-Type: \(mediaType); charset=UTF-8")
            line("Content-Transfer-Encoding: quoted-printable")
            line("")
            Self.appendQuotedPrintableBody(body, to: &out)
        }
        line("--\(boundary)--")
        return out
    }

    static let crlf: [UInt8] = [0x0D, 0x0A]

    // MARK: - Date (RFC 5322 §3.3)

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Tue, 02 Jan 2024 03:04:05 +0000`: the RFC 5322 §3.3 `date-time`, in UTC, with the
    /// English day and month names `en_US_POSIX` uses. Built from calendar components rather
    /// than a shared `DateFormatter`, so it is safe on any thread.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(padded(parts.day, 2)) \(month) \(padded(parts.year, 4)) "
            + "\(padded(parts.hour, 2)):\(padded(parts.minute, 2)):\(padded(parts.second, 2)) +0000"
    }

    // MARK: - Header text

    /// Header text with control characters (C0, DEL, C1) and line/paragraph separators turned
    /// into spaces, whitespace runs collapsed, and the ends trimmed: nothing can start a new
    /// header line, and folding never produces a whitespace-only line.
    static func cleanedHeaderText(_ text: String) -> String {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar == " " || category == .control || category == .lineSeparator || category == .paragraphSeparator {
                if !word.isEmpty { words.append(String(word)) }
                word = String.UnicodeScalarView()
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words.joined(separator: " ")
    }

    /// `Subject:` as plain folded words when the text is printable ASCII that folds within 78
    /// columns and holds no `=?` (which a reader could mistake for an encoded-word); otherwise
    /// the whole text as encoded-words.
    static func subjectHeader(_ subject: String) -> String {
        let text = cleanedHeaderText(subject)
        if isPrintableASCII(text), !text.contains("=?") {
            var folder = HeaderFolder(name: "Subject")
            for word in text.split(separator: " ") { folder.add(String(word)) }
            if !folder.overflowed { return folder.finish() }
        }
        var folder = HeaderFolder(name: "Subject")
        folder.addEncoded(text)
        return folder.finish()
    }

    /// `From:` / `To:`: comma-separated mailboxes, folded between words.
    static func addressHeader(_ name: String, _ addresses: [EmailAddress]) -> String {
        var folder = HeaderFolder(name: name)
        for (index, mailbox) in addresses.enumerated() {
            let comma = index < addresses.count - 1 ? "," : ""
            let address = cleanedAddress(mailbox.address)
            let displayName = cleanedHeaderText(mailbox.displayName ?? "")
            if displayName.isEmpty {
                folder.add(address + comma)
            } else {
                addPhrase(displayName, to: &folder)
                folder.add("<\(address)>\(comma)")
            }
        }
        return folder.finish()
    }

    /// The address with anything that could break out of `<…>` or the header removed (spaces,
    /// controls, brackets, commas: `EmailAddress.belongsInAddress`). The SMTP transport refuses
    /// such addresses outright; this only keeps `rendered()` well-formed. Non-ASCII letters stay,
    /// as UTF-8 (RFC 6532): the address is the one the message goes to.
    static func cleanedAddress(_ address: String) -> String {
        String(String.UnicodeScalarView(address.unicodeScalars.filter(EmailAddress.belongsInAddress)))
    }

    /// The domain of an address (after the last `@`), reduced to letters, digits, `-` and `.`,
    /// or `localhost` when nothing is left.
    static func domain(of address: String) -> String {
        let domain = address.lastIndex(of: "@").map { address[address.index(after: $0)...] } ?? ""
        let cleaned = String(String.UnicodeScalarView(domain.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == ".")
        }))
        return cleaned.isEmpty ? "localhost" : cleaned
    }

    /// RFC 5322 `atext` (§3.2.3).
    private static let atext: Set<Unicode.Scalar> = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".unicodeScalars)

    /// A display name as atoms (ASCII `atext` words), else a quoted-string (printable ASCII,
    /// short enough to fit a line), else encoded-words (RFC 2047 §5 (3)).
    static func addPhrase(_ name: String, to folder: inout HeaderFolder) {
        if isPrintableASCII(name) {
            let words = name.split(separator: " ")
            let isAtoms = !name.contains("=?")
                && words.allSatisfy { $0.utf8.count <= 60 && $0.unicodeScalars.allSatisfy(atext.contains) }
            if isAtoms {
                for word in words { folder.add(String(word)) }
                return
            }
            var quoted = "\""
            for scalar in name.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
                quoted.unicodeScalars.append(scalar)
            }
            quoted += "\""
            if quoted.utf8.count <= 60 {
                folder.add(quoted)
                return
            }
        }
        folder.addEncoded(name)
    }

    static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    // MARK: - Quoted-printable (RFC 2045 §6.7)

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Appends `text` as quoted-printable: line breaks (LF, CRLF or CR) become CRLF hard breaks;
    /// `=`, bytes outside printable ASCII, and a space or tab ending a line become `=XX`; longer
    /// lines get soft breaks (`=` CRLF) so no encoded line exceeds 76 characters. Ends with CRLF.
    static func appendQuotedPrintableBody(_ text: String, to out: inout [UInt8]) {
        let bytes = Array(text.utf8)
        var index = 0
        var lineStart = 0
        func encodeLine(_ line: ArraySlice<UInt8>) {
            var column = 0
            for position in line.indices {
                let byte = line[position]
                let isLast = position == line.index(before: line.endIndex)
                var token: [UInt8]
                switch byte {
                case 0x20, 0x09:
                    token = isLast ? [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]] : [byte]
                case 0x21...0x7E where byte != UInt8(ascii: "="):
                    token = [byte]
                default:
                    token = [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                }
                // Keep room for the soft break's `=`, unless this is the line's last token.
                let limit = isLast ? 76 : 75
                if column + token.count > limit {
                    out.append(UInt8(ascii: "="))
                    out.append(contentsOf: crlf)
                    column = 0
                }
                out.append(contentsOf: token)
                column += token.count
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                encodeLine(bytes[lineStart..<index])
                out.append(contentsOf: crlf)
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < bytes.count || bytes.isEmpty {
            encodeLine(bytes[lineStart..<bytes.count])
            out.append(contentsOf: crlf)
        }
    }
}

/// Lays out one header field: tokens separated by single spaces, folded (CRLF + the space)
/// before a token that would push the line past 78 characters (76 on lines with encoded-words,
/// RFC 2047 §2). A token longer than a whole line is placed anyway and sets `overflowed`.
struct HeaderFolder {
    private var lines: [String] = []
    private var current: String
    private var tokensOnLine = 0
    private var lineHasEncodedWord = false
    /// `true` when some line ended up longer than its limit.
    private(set) var overflowed = false

    private static let maxLine = 78
    private static let maxEncodedLine = 76
    private static let maxEncodedWord = 75

    init(name: String) {
        current = name + ":"
    }

    mutating func add(_ token: String) {
        place(token, isEncodedWord: false)
    }

    private mutating func place(_ token: String, isEncodedWord: Bool) {
        let limit = (isEncodedWord || lineHasEncodedWord) ? Self.maxEncodedLine : Self.maxLine
        if tokensOnLine > 0, current.utf8.count + 1 + token.utf8.count > limit { fold() }
        current += " " + token
        tokensOnLine += 1
        if isEncodedWord { lineHasEncodedWord = true }
        let newLimit = lineHasEncodedWord ? Self.maxEncodedLine : Self.maxLine
        if current.utf8.count > newLimit { overflowed = true }
    }

    private mutating func fold() {
        lines.append(current)
        current = ""
        tokensOnLine = 0
        lineHasEncodedWord = false
    }

    /// Appends `text` as `=?UTF-8?B?…?=` encoded-words (RFC 2047 §4.1), filling each line and
    /// splitting only between Unicode scalars. Readers join adjacent encoded-words without the
    /// whitespace between them (§6.2), so the text (spaces included) decodes unchanged.
    mutating func addEncoded(_ text: String) {
        func encodedLength(_ byteCount: Int) -> Int { 12 + 4 * ((byteCount + 2) / 3) }
        func room() -> Int { min(Self.maxEncodedWord, Self.maxEncodedLine - current.utf8.count - 1) }
        var pending: [UInt8] = []
        func flush() {
            guard !pending.isEmpty else { return }
            place("=?UTF-8?B?\(Data(pending).base64EncodedString())?=", isEncodedWord: true)
            pending.removeAll()
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if encodedLength(pending.count + bytes.count) > room() {
                flush()
                if encodedLength(bytes.count) > room() { fold() }
            }
            pending += bytes
        }
        flush()
    }

    /// The field's lines joined by CRLF, ending with CRLF.
    func finish() -> String {
        (lines + [current]).joined(separator: "\r\n") + "\r\n"
    }
}
