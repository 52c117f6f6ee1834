public import ShopCore

/// The image library the import checks and shrinks images with (issue #13, point 4), as a struct
/// of closures (STYLE.md 3): ShopService imports no C, `ImageProcessor.vips` (ShopWebLive) is the
/// live one, and `.none` makes no renditions (the import then only copies files, as before).
///
/// ```swift
/// let processor = ImageProcessor.vips()
/// let info = try processor.inspect(bytes)                         // 6000 × 4000, no alpha
/// let files = try processor.render(bytes, 640, [.webp, .jpeg])    // [webp bytes, jpeg bytes]
/// ```
public struct ImageProcessor: Sendable {
    /// What the header of an image says.
    public struct Info: Hashable, Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// It has an alpha (transparency) band.
        public var hasAlpha: Bool

        /// Creates the info of an image.
        public init(width: Int, height: Int, hasAlpha: Bool) {
            self.width = width
            self.height = height
            self.hasAlpha = hasAlpha
        }
    }

    /// Reads an image's header. Throws, with a description for the merchant, when the bytes are
    /// no image the library reads or have more pixels than allowed (a decompression bomb).
    public var inspect: @Sendable (_ bytes: [UInt8]) throws -> Info
    /// The image shrunk to `width` pixels (never enlarged), encoded once per format, in the
    /// order given. Throws when its pixels are broken.
    public var render: @Sendable (_ bytes: [UInt8], _ width: Int, _ formats: [ImageRenditions.Format]) throws -> [[UInt8]]

    /// Creates a processor from its operations.
    public init(inspect: @escaping @Sendable (_ bytes: [UInt8]) throws -> Info,
                render: @escaping @Sendable (_ bytes: [UInt8], _ width: Int, _ formats: [ImageRenditions.Format]) throws -> [[UInt8]]) {
        self.inspect = inspect
        self.render = render
    }
}
