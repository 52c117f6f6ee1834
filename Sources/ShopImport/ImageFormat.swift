/// The image formats an import accepts from local files, told apart by their first bytes (the
/// file's name and extension are never trusted).
///
/// ```swift
/// ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, …])  // .png
/// ImageFormat(sniffing: Array("root:x:0:0:root:/root:/bin/bash".utf8))       // nil
/// ```
public enum ImageFormat: String, CaseIterable, Hashable, Sendable {
    /// JPEG: starts `FF D8 FF`.
    case jpeg
    /// PNG: starts with the 8-byte signature `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// WebP: a RIFF container, `RIFF` size `WEBP`, whose first chunk is `VP8 `, `VP8L` or `VP8X`.
    case webp
    /// GIF: starts `GIF87a` or `GIF89a`.
    case gif
    /// AVIF: an ISO-BMFF `ftyp` box whose major or a compatible brand is `avif` or `avis`.
    case avif

    /// The extension imported files of this format get, e.g. `"jpg"`; the server's
    /// `Content-Type` follows it.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The format `bytes` (a file's content from its first byte) is in, or nil when it is none
    /// of these.
    public init?(sniffing bytes: [UInt8]) {
        func starts(with text: String, at offset: Int = 0) -> Bool {
            let pattern = Array(text.utf8)
            return bytes.count >= offset + pattern.count && Array(bytes[offset..<(offset + pattern.count)]) == pattern
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(with: "GIF87a") || starts(with: "GIF89a") {
            self = .gif
        } else if starts(with: "RIFF"), starts(with: "WEBP", at: 8),
                  starts(with: "VP8 ", at: 12) || starts(with: "VP8L", at: 12) || starts(with: "VP8X", at: 12) {
            self = .webp
        } else if Self.isAVIF(bytes) {
            self = .avif
        } else {
            return nil
        }
    }

    /// An `ftyp` box first (4-byte big-endian size, `ftyp`, major brand, minor version,
    /// compatible brands) naming `avif` (still image) or `avis` (image sequence).
    private static func isAVIF(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 16, size <= bytes.count, size % 4 == 0 else { return false }
        let brands = [Array("avif".utf8), Array("avis".utf8)]
        // The major brand at 8, then compatible brands from 16 to the end of the box.
        return stride(from: 8, to: size, by: 4).contains { offset in
            offset != 12 && brands.contains(Array(bytes[offset..<(offset + 4)]))
        }
    }
}
