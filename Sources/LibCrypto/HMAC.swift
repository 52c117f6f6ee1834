import CLibCrypto

/// HMAC through OpenSSL's libcrypto, for what libsodium does not offer: HMAC-SHA1, which TOTP
/// (RFC 6238, issue #16) and every authenticator app use. The only module that touches
/// libcrypto: no C pointer or return code leaves this file.
public enum HMAC {
    /// HMAC-SHA1 of `message` under `key` (RFC 2104): 20 bytes.
    public static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let produced = key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                digest.withUnsafeMutableBufferPointer { out in
                    CLibCrypto.HMAC(EVP_sha1(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                                    messageBuffer.baseAddress, messageBuffer.count, out.baseAddress, &length)
                }
            }
        }
        // HMAC() fails only when it cannot allocate; SHA-1 is always available.
        precondition(produced != nil && length == 20, "HMAC-SHA1 failed")
        return Array(digest.prefix(Int(length)))
    }
}
