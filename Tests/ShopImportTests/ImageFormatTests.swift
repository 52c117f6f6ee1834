import ShopImport
import Testing

/// Small but real image files, and the first bytes of a few that are not images.
enum SampleFile {
    /// An 8×8 PNG (`e2e/fixtures/images/walnut-serving-board.png`).
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x08, 0x00, 0x00, 0x00, 0x08, 0x08, 0x02, 0x00, 0x00, 0x00, 0x4B, 0x6D, 0x29, 0xDC, 0x00, 0x00, 0x00,
        0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xE8, 0x8A, 0xD2, 0xC6, 0x8A, 0x18, 0x86, 0x96, 0x04, 0x00,
        0x91, 0x0E, 0x43, 0xC1, 0xBE, 0x45, 0xB1, 0x4D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42,
        0x60, 0x82,
    ]
    /// A 1×1 GIF.
    static let gif: [UInt8] = Array("GIF89a".utf8) + [
        0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x21, 0xF9, 0x04, 0x01, 0x00,
        0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00,
        0x3B,
    ]
    /// A 1×1 lossless WebP.
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x1A, 0x00, 0x00, 0x00] + Array("WEBPVP8L".utf8) + [
        0x0D, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0x00,
    ]
    /// The start of a JFIF JPEG.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00]
    /// The `ftyp` box of an AVIF still image (major brand `avif`).
    static let avif: [UInt8] = [0x00, 0x00, 0x00, 0x1C] + Array("ftypavif".utf8) + [0x00, 0x00, 0x00, 0x00]
        + Array("avifmif1miaf".utf8)
    /// The `ftyp` box of an AVIF image sequence: `avis` only among the compatible brands.
    static let avifSequence: [UInt8] = [0x00, 0x00, 0x00, 0x18] + Array("ftypmsf1".utf8) + [0x00, 0x00, 0x00, 0x00]
        + Array("iso8avis".utf8)
}

@Suite("Image formats by content")
struct ImageFormatTests {
    static let images: [([UInt8], ImageFormat)] = [
        (SampleFile.png, .png), (SampleFile.gif, .gif), (SampleFile.webp, .webp), (SampleFile.jpeg, .jpeg),
        (SampleFile.avif, .avif), (SampleFile.avifSequence, .avif), (Array("GIF87a".utf8) + [0, 0], .gif),
    ]

    @Test(arguments: images)
    func imagesAreRecognizedByTheirFirstBytes(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat(sniffing: bytes) == format)
    }

    /// Files that are not images, near misses and other containers.
    static let notImages: [[UInt8]] = {
        var files: [[UInt8]] = []
        files.append(Array("root:x:0:0:root:/root:/bin/bash\n".utf8))  // /etc/passwd
        files.append(Array("SHOPPABLE_DATABASE=var/shop.sqlite3\0PATH=/usr/bin\0".utf8))  // /proc/self/environ
        files.append(Array("SQLite format 3\0".utf8) + [0x10, 0x00])  // the shop's database
        files.append(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>".utf8))
        files.append(Array("<!DOCTYPE html><script>alert(1)</script>".utf8))
        files += [Array("GIF88a".utf8), [0x89, 0x50, 0x4E, 0x47], [0xFF, 0xD8], []]  // near misses, truncated, empty
        let riff: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0]
        files.append(riff + Array("WAVEfmt ".utf8))  // a RIFF that is audio
        files.append(riff + Array("WEBPJUNK".utf8))  // a WebP without a VP8 chunk
        let mp4: [UInt8] = [0x00, 0x00, 0x00, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)
        files.append(mp4)
        files.append([0x00, 0x00, 0x00, 0x10] + Array("ftypheic".utf8) + [0, 0, 0, 0])  // HEIC: not accepted
        files.append([0x00, 0x00, 0x00, 0xFF] + Array("ftypavif".utf8) + [0, 0, 0, 0])  // box longer than the file
        files += [Array("PK".utf8) + [0x03, 0x04], [0x7F] + Array("ELF".utf8)]
        return files
    }()

    @Test(arguments: notImages)
    func otherContentIsNoImage(bytes: [UInt8]) {
        #expect(ImageFormat(sniffing: bytes) == nil)
    }

    @Test func jpegFilesGetTheJpgExtension() {
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["jpg", "png", "webp", "gif", "avif"])
    }
}
