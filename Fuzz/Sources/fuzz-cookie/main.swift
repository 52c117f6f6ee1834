// `Cookie` request headers (one per input line) and `Set-Cookie` values built from untrusted text.
//
// Invariant: a `Set-Cookie` value is printable ASCII and has exactly the attributes asked
// for, whatever the name, value, path and domain hold (no header or attribute injection).
import FuzzSupport
import HTTPServer

fuzz { bytes in
    let lines = pieces(of: bytes, separatedBy: UInt8(ascii: "\n")).map(text)
    let cookies = Cookie.parse(headerValues: lines)
    // On bytes: `String.contains(";")` compares characters, and U+037E GREEK QUESTION MARK is
    // canonically equivalent to `;` (a name holding it is split correctly, on the byte 0x3B).
    invariant(cookies.keys.allSatisfy { !$0.isEmpty && !$0.utf8.contains(UInt8(ascii: ";")) }, "bad cookie name in \(cookies)")

    let parts = pieces(of: bytes, separatedBy: 0).map(text)
    func part(_ index: Int) -> String? { index < parts.count ? parts[index] : nil }
    let cookie = Cookie(name: parts[0], value: part(1) ?? "", maxAge: part(1)?.utf8.count,
                        path: part(2), domain: part(3), secure: parts.count.isMultiple(of: 2))
    let header = cookie.headerValue
    invariant(header.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "control or non-ASCII byte in \(header.debugDescription)")
    let expected = 1 + [cookie.maxAge != nil, cookie.domain != nil, cookie.path != nil, cookie.secure,
                        cookie.httpOnly, cookie.sameSite != nil].filter { $0 }.count
    invariant(header.split(separator: ";", omittingEmptySubsequences: false).count == expected,
                 "attributes injected: \(header.debugDescription)")
}
