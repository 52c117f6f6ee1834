public import ShopService
import ShopCore
public import Vips

extension ImageProcessor {
    /// libvips (`Vips.VipsImage`): the header read first and refused over `maximumPixels`, then
    /// each rendition shrunk with shrink-on-load and encoded at quality 80 with metadata stripped.
    /// - Parameter maximumPixels: the most pixels (width × height) an image may have.
    public static func vips(maximumPixels: Int = VipsImage.defaultMaximumPixels) -> ImageProcessor {
        ImageProcessor(
            inspect: { bytes in
                let image = try VipsImage(bytes: bytes, maximumPixels: maximumPixels)
                return Info(width: image.width, height: image.height, hasAlpha: image.hasAlpha)
            },
            render: { bytes, width, formats in
                let thumbnail = try VipsImage(bytes: bytes, maximumPixels: maximumPixels).thumbnail(width: width)
                return try formats.map { format throws(VipsError) in
                    let encoding: VipsImage.Format = switch format {
                    case .webp: .webp
                    case .jpeg: .jpeg
                    case .png: .png
                    }
                    return try thumbnail.encoded(as: encoding)
                }
            })
    }
}
