import CVips
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image decoded by libvips: the one thin Swift face of `CVips`, so no `VipsImage *`, GLib
/// buffer or raw return code leaks into the app.
///
/// Opening an image reads its header only (size, bands) and refuses one whose pixel count is
/// over a limit before any pixel is decoded (a decompression bomb: a 50 KB PNG can claim
/// 100 000 × 100 000 pixels). Pixels are decoded when a rendition is made; a broken file throws
/// then.
///
/// ```swift
/// let image = try VipsImage(bytes: fileBytes)                 // header only; ≤ 50 megapixels
/// print(image.width, image.height, image.hasAlpha)
/// let small = try image.thumbnail(width: 640)                  // never wider than the original
/// let webp = try small.encoded(as: .webp)                      // quality 80, metadata stripped
/// ```
public final class VipsImage: @unchecked Sendable {
    // @unchecked: `pointer` and `buffer` are set once in init and never changed; libvips images
    // are immutable and may be read from any thread once built.

    /// The most pixels (width × height) an image may have by default: 50 megapixels.
    public static let defaultMaximumPixels = 50_000_000

    /// The image's width in pixels.
    public let width: Int
    /// The image's height in pixels.
    public let height: Int
    /// `true` when it has an alpha (transparency) band.
    public let hasAlpha: Bool

    private let pointer: UnsafeMutablePointer<CVips.VipsImage>
    /// The encoded file libvips reads from (it does not copy it), shared with thumbnails made
    /// from it; freed with the last of them.
    private let buffer: SourceBuffer

    /// Opens the encoded image in `bytes` (JPEG, PNG, WebP, GIF, …), reading its header only.
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - maximumPixels: the most pixels (width × height) accepted.
    /// - Throws: ``VipsError/notAnImage(_:)`` when libvips knows no such format or the header
    ///   is broken; ``VipsError/tooManyPixels(width:height:maximum:)`` over the limit.
    public convenience init(bytes: [UInt8], maximumPixels: Int = defaultMaximumPixels) throws(VipsError) {
        try Vips.start()
        let buffer = SourceBuffer(bytes)
        guard let image = shoppable_vips_image_from_buffer(buffer.start, buffer.count) else {
            throw .notAnImage(Vips.lastError())
        }
        let width = Int(vips_image_get_width(image)), height = Int(vips_image_get_height(image))
        guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels,
              width <= maximumPixels, height <= maximumPixels else {
            g_object_unref(image)
            throw .tooManyPixels(width: width, height: height, maximum: maximumPixels)
        }
        self.init(image, buffer: buffer)
    }

    private init(_ image: UnsafeMutablePointer<CVips.VipsImage>, buffer: SourceBuffer) {
        pointer = image
        self.buffer = buffer
        width = Int(vips_image_get_width(image))
        height = Int(vips_image_get_height(image))
        hasAlpha = vips_image_hasalpha(image) != 0
    }

    deinit { g_object_unref(pointer) }

    /// This image shrunk to `width` pixels wide, the height in proportion, in sRGB. An image
    /// already that narrow or narrower keeps its size (never enlarged).
    /// - Parameter width: the wanted width in pixels (at least 1).
    /// - Throws: ``VipsError/decodingFailed(_:)`` when the file's pixels are broken (cut short,
    ///   corrupt).
    public func thumbnail(width: Int) throws(VipsError) -> VipsImage {
        precondition(width > 0, "a thumbnail needs a positive width")
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard shoppable_vips_thumbnail_buffer(buffer.start, buffer.count, &out, Int32(clamping: width)) == 0,
              let out else {
            throw .decodingFailed(Vips.lastError())
        }
        return VipsImage(out, buffer: buffer)
    }

    /// The image encoded as a file. Metadata (EXIF, location, colour profile) is stripped.
    /// - Parameters:
    ///   - format: WebP, JPEG (alpha flattened onto white) or PNG.
    ///   - quality: 1–100, for WebP and JPEG.
    /// - Returns: the file's bytes.
    /// - Throws: ``VipsError/decodingFailed(_:)`` when the pixels cannot be decoded or encoded.
    public func encoded(as format: VipsImage.Format, quality: Int = 80) throws(VipsError) -> [UInt8] {
        var data: UnsafeMutableRawPointer?
        var length = 0
        let quality = Int32(min(max(quality, 1), 100))
        let status = switch format {
        case .webp: shoppable_vips_webpsave_buffer(pointer, &data, &length, quality)
        case .jpeg: shoppable_vips_jpegsave_buffer(pointer, &data, &length, quality)
        case .png: shoppable_vips_pngsave_buffer(pointer, &data, &length)
        }
        guard status == 0, let data else { throw .decodingFailed(Vips.lastError()) }
        defer { g_free(data) }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// A file format libvips writes.
    public enum Format: String, Sendable, CaseIterable {
        case webp, jpeg, png
    }

    /// A made-up photo-like picture (colour gradients with strong noise, which compresses about
    /// as badly as a real photo): for tests and benchmarks, which must not ship large files.
    /// - Parameters:
    ///   - width: its width in pixels.
    ///   - height: its height in pixels.
    ///   - alpha: add a transparency band.
    ///   - format: the file format to encode it in.
    ///   - quality: the encoder quality (WebP, JPEG).
    /// - Returns: the encoded file.
    public static func syntheticPhoto(width: Int, height: Int, alpha: Bool = false,
                                      format: Format, quality: Int = 95) throws(VipsError) -> [UInt8] {
        try Vips.start()
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard shoppable_vips_test_image(&out, Int32(width), Int32(height), alpha ? 1 : 0) == 0, let out else {
            throw .decodingFailed(Vips.lastError())
        }
        return try VipsImage(out, buffer: SourceBuffer([])).encoded(as: format, quality: quality)
    }
}

/// Why libvips refused an image.
public enum VipsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libvips could not start (a broken installation).
    case unavailable(String)
    /// Not an image format libvips reads, or the header is broken.
    case notAnImage(String)
    /// More pixels than allowed: refused before decoding.
    case tooManyPixels(width: Int, height: Int, maximum: Int)
    /// The pixels could not be decoded or encoded (a file cut short or corrupt).
    case decodingFailed(String)

    /// What is wrong, in words for a merchant.
    public var description: String {
        switch self {
        case let .unavailable(reason): "the image library could not start: \(reason)"
        case let .notAnImage(reason): "not an image the image library can read (\(reason))"
        case let .tooManyPixels(width, height, maximum):
            "\(width) × \(height) pixels is more than the \(maximum / 1_000_000) megapixels an image may have"
        case let .decodingFailed(reason): "the image is broken and cannot be decoded (\(reason))"
        }
    }
}

/// libvips' process-wide state.
enum Vips {
    /// Starts libvips once per process; a Swift global's initializer runs once, thread-safely.
    private static let started: VipsError? = shoppable_vips_init() == 0 ? nil : .unavailable(lastError())

    static func start() throws(VipsError) {
        if let started { throw started }
    }

    /// libvips' error text (one buffer per process), cleared for the next error.
    static func lastError() -> String {
        let text = String(cString: vips_error_buffer())
            .split(whereSeparator: \.isNewline).joined(separator: "; ")
        vips_error_clear()
        return text.isEmpty ? "no details" : text
    }
}

/// A copy of an encoded file at a fixed address, for libvips to read without copying.
private final class SourceBuffer: @unchecked Sendable {
    let start: UnsafeMutableRawPointer
    let count: Int

    init(_ bytes: [UInt8]) {
        count = bytes.count
        start = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { start.copyMemory(from: base, byteCount: count) }
        }
    }

    deinit { start.deallocate() }
}
