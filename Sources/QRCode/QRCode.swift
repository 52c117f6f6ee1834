import CQREncode

/// A QR code's modules (issue #16: the TOTP enrolment's code, drawn as SVG by the caller),
/// encoded by libqrencode. The only module that touches it: no C pointer leaves this file.
///
/// ```swift
/// let code = try QRCode("otpauth://totp/Shop:ana@example.com?secret=…")
/// code.size          // 33: modules per side
/// code[0, 0]         // true: the finder pattern's dark corner
/// ```
public struct QRCode: Hashable, Sendable {
    /// Modules per side (21 for version 1, 4 more per version).
    public let size: Int
    /// Row by row, `size × size`; `true` is a dark module.
    public let modules: [Bool]

    /// Why a text could not be encoded.
    public struct EncodingError: Error, Hashable, Sendable {
        /// The byte count of the text that was refused.
        public var bytes: Int
    }

    /// Encodes `text` as 8-bit data at error-correction level M (15% of the code can be lost),
    /// in the smallest version that holds it.
    /// - Throws: ``EncodingError`` for an empty text or one too long for any version (2 331 bytes
    ///   at level M).
    public init(_ text: String) throws(EncodingError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw EncodingError(bytes: 0) }
        let encoded: UnsafeMutablePointer<QRcode>? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { QRcode_encodeData(Int32(buffer.count), $0, 0, QR_ECLEVEL_M) }
        }
        guard let encoded else { throw EncodingError(bytes: bytes.count) }
        defer { QRcode_free(encoded) }
        let width = Int(encoded.pointee.width)
        let data = UnsafeBufferPointer(start: encoded.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour; the others are libqrencode's bookkeeping.
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    /// The module at `column` `x`, `row` `y` (from the top left).
    public subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }
}
