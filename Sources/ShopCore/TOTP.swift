public import Foundation

/// Time-based one-time passwords (RFC 6238) as authenticator apps make them: HMAC-SHA1, 30-second
/// steps, 6 digits — the staff's optional second factor (issue #16, point 1). The HMAC is
/// injected (libcrypto in the server: the core links no C).
///
/// ```swift
/// let totp = TOTP(hmacSHA1: HMAC.sha1)
/// totp.code(secret: secret, step: TOTP.step(at: Date()))   // "287082"
/// ```
public struct TOTP: Sendable {
    /// Seconds per step.
    public static let period: Int64 = 30
    /// Digits per code.
    public static let digits = 6
    /// Steps either side of now a code is still taken from (clocks drift; typing takes time).
    public static let window: Int64 = 1

    private let hmacSHA1: @Sendable (_ key: [UInt8], _ message: [UInt8]) -> [UInt8]

    public init(hmacSHA1: @escaping @Sendable (_ key: [UInt8], _ message: [UInt8]) -> [UInt8]) {
        self.hmacSHA1 = hmacSHA1
    }

    /// The step `date` falls in: whole periods since the Unix epoch (RFC 6238's T).
    public static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code of `step` (RFC 4226's HOTP with the step as counter), `digits` long with leading zeros.
    public func code(secret: [UInt8], step: Int64, digits: Int = TOTP.digits) -> String {
        var counter = [UInt8](repeating: 0, count: 8)
        for index in 0..<8 { counter[7 - index] = UInt8(truncatingIfNeeded: UInt64(bitPattern: step) >> (8 * UInt64(index))) }
        let mac = hmacSHA1(secret, counter)
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// The step whose code `typed` is, within ``window`` steps of `now`'s; nil when none.
    /// Spaces in `typed` are ignored ("287 082"). The caller refuses a step already used.
    public func matchingStep(_ typed: String, secret: [UInt8], now: Date) -> Int64? {
        let digits = typed.filter { !$0.isWhitespace }
        guard digits.count == Self.digits, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        let current = Self.step(at: now)
        for step in (current - Self.window)...(current + Self.window) where code(secret: secret, step: step) == digits {
            return step
        }
        return nil
    }

    /// The `otpauth://` address an authenticator app reads from the QR code (Google's key URI
    /// format): the issuer and account label, the secret in Base32, SHA1, 6 digits, 30 seconds.
    public static func provisioningURI(secret: [UInt8], issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        func escaped(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "otpauth://totp/\(escaped(issuer)):\(escaped(account))?secret=\(Base32.encode(secret))"
            + "&issuer=\(escaped(issuer))&algorithm=SHA1&digits=\(digits)&period=\(period)"
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// RFC 4648 Base32 without padding, as authenticator apps take secrets.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text` (case and spaces ignored, padding allowed); nil for other characters.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for scalar in text.uppercased().unicodeScalars where scalar != " " && scalar != "=" {
            guard let value = alphabet.firstIndex(of: UInt8(truncatingIfNeeded: scalar.value)), scalar.isASCII else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return output
    }
}
