/// The smaller copies ("renditions") kept of every image stored in the media library, and their
/// names: the one rule the import (which writes them) and the pages (which link them) share.
///
/// An image stored as `/media/<hash>.<ext>` (`MediaLibrary`) has, for each width in
/// ``widths(forOriginalWidth:)``, a WebP copy and a fallback copy — JPEG, or PNG when the image
/// has transparency — named `<hash>-<width>.webp` and `<hash>-<width>.jpg`/`.png`. A phone gets
/// the 320- or 640-pixel WebP (tens of kilobytes) instead of the merchant's full-size photo.
///
/// ```swift
/// ImageRenditions.widths(forOriginalWidth: 6000)                       // [320, 640, 1280]
/// ImageRenditions.widths(forOriginalWidth: 800)                        // [320, 640, 800]
/// ImageRenditions.name(of: "3f1c9a.png", width: 640, format: .webp)    // "3f1c9a-640.webp"
/// ```
public enum ImageRenditions {
    /// The widths made, in pixels: a phone's (320, 640 at 2×) and a desktop's (1280).
    public static let standardWidths = [320, 640, 1280]

    /// A rendition's file format.
    public enum Format: String, Sendable, CaseIterable {
        case webp, jpeg, png

        /// The file extension, without the dot.
        public var fileExtension: String {
            switch self {
            case .webp: "webp"
            case .jpeg: "jpg"
            case .png: "png"
            }
        }

        /// The media type it is served with, e.g. `image/webp`.
        public var mediaType: String { "image/" + rawValue }
    }

    /// The widths made of an image `width` pixels wide: the standard widths narrower than it, and
    /// its own width when that is below the largest standard one. Never wider than the original.
    /// - Parameter width: the original's width in pixels.
    public static func widths(forOriginalWidth width: Int) -> [Int] {
        guard width > 0 else { return [] }
        let narrower = standardWidths.filter { $0 < width }
        return width <= standardWidths[standardWidths.count - 1] ? narrower + [width] : narrower
    }

    /// The fallback format (beside WebP) of an image: PNG when it has transparency, else JPEG.
    public static func fallbackFormat(hasAlpha: Bool) -> Format { hasAlpha ? .png : .jpeg }

    /// A rendition's file name, from the stored original's name (`<hash>.<ext>`).
    /// - Parameters:
    ///   - original: the original's file name (no folder), e.g. `"3f1c9a.png"`.
    ///   - width: the rendition's width.
    ///   - format: its format.
    public static func name(of original: String, width: Int, format: Format) -> String {
        let stem = original.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? original
        return "\(stem)-\(width).\(format.fileExtension)"
    }

    /// The site path stored images are served from.
    public static let mediaPrefix = "/media/"

    /// One rendition of an image, as a page links it.
    public struct Rendition: Hashable, Sendable {
        /// Its width in pixels.
        public var width: Int
        /// Its site path, e.g. `/media/3f1c9a-640.webp`.
        public var url: String
    }

    /// The renditions of `image` in `format`, narrowest first; empty for an image that is not
    /// stored in the media library or whose size is unknown (imported before renditions).
    public static func renditions(of image: ProductImage, format: Format) -> [Rendition] {
        guard image.url.hasPrefix(mediaPrefix), let width = image.width, image.height != nil else { return [] }
        let original = String(image.url.dropFirst(mediaPrefix.count))
        guard !original.contains("/") else { return [] }
        return widths(forOriginalWidth: width).map {
            Rendition(width: $0, url: mediaPrefix + name(of: original, width: $0, format: format))
        }
    }

    /// Every rendition of `image` with its format, narrowest first, WebP before the fallback at
    /// each width (what the JSON API lists); empty when ``renditions(of:format:)`` is.
    public static func allRenditions(of image: ProductImage) -> [(rendition: Rendition, format: Format)] {
        let webp = renditions(of: image, format: .webp)
        let fallback = renditions(of: image, format: fallbackFormat(hasAlpha: image.hasAlpha))
        return zip(webp, fallback).flatMap { [($0, Format.webp), ($1, fallbackFormat(hasAlpha: image.hasAlpha))] }
    }

    /// The one picture to give a client that takes a single image URL (the Fake Store API's
    /// `image`): a stored image's widest fallback rendition — JPEG or PNG, which every client
    /// decodes, at most 1280 pixels wide, so a 25 MB photo arrives as a few hundred kilobytes —,
    /// or the image's own URL when it has no renditions (remote, or size unknown).
    public static func singleURL(of image: ProductImage) -> String {
        renditions(of: image, format: fallbackFormat(hasAlpha: image.hasAlpha)).last?.url ?? image.url
    }
}
