import Testing
import Vips

/// libvips through `VipsImage`: images made by libvips itself in each test, so no fixture file
/// is checked in.
@Suite struct VipsImageTests {
    @Test(arguments: VipsImage.Format.allCases)
    func opensWhatItWrote(format: VipsImage.Format) throws {
        let bytes = try VipsImage.syntheticPhoto(width: 120, height: 80, format: format)

        let image = try VipsImage(bytes: bytes)

        #expect(image.width == 120)
        #expect(image.height == 80)
        #expect(!image.hasAlpha)
    }

    @Test func seesAlpha() throws {
        let png = try VipsImage.syntheticPhoto(width: 40, height: 30, alpha: true, format: .png)

        #expect(try VipsImage(bytes: png).hasAlpha)
    }

    /// Width asked → width got, height in proportion; never wider than the original.
    @Test(arguments: [(wanted: 320, expected: 320), (wanted: 640, expected: 640), (wanted: 1280, expected: 800),
                      (wanted: 2000, expected: 800)])
    func thumbnailShrinksButNeverEnlarges(wanted: Int, expected: Int) throws {
        let jpeg = try VipsImage.syntheticPhoto(width: 800, height: 600, format: .jpeg)

        let thumbnail = try VipsImage(bytes: jpeg).thumbnail(width: wanted)

        #expect(thumbnail.width == expected)
        #expect(thumbnail.height == expected * 600 / 800)
    }

    /// Each encoder's output is a file of that format (by its magic bytes) that opens again at
    /// the thumbnail's size.
    @Test(arguments: [(VipsImage.Format.webp, Array("RIFF".utf8)), (.jpeg, [0xFF, 0xD8, 0xFF]),
                      (.png, [0x89, 0x50, 0x4E, 0x47])])
    func encodesEachFormat(format: VipsImage.Format, magic: [UInt8]) throws {
        let source = try VipsImage.syntheticPhoto(width: 300, height: 200, format: .png)

        let encoded = try VipsImage(bytes: source).thumbnail(width: 150).encoded(as: format)

        #expect(Array(encoded.prefix(magic.count)) == magic)
        let reopened = try VipsImage(bytes: encoded)
        #expect(reopened.width == 150)
        #expect(reopened.height == 100)
    }

    /// JPEG has no alpha: a transparent PNG is flattened, and the JPEG opens with 3 bands.
    @Test func jpegFlattensAlpha() throws {
        let png = try VipsImage.syntheticPhoto(width: 64, height: 64, alpha: true, format: .png)

        let jpeg = try VipsImage(bytes: png).thumbnail(width: 32).encoded(as: .jpeg)

        #expect(try !VipsImage(bytes: jpeg).hasAlpha)
    }

    /// The header is read before any pixel: an image claiming more pixels than allowed is
    /// refused with its size.
    @Test func refusesTooManyPixels() throws {
        let png = try VipsImage.syntheticPhoto(width: 200, height: 100, format: .png)

        #expect(throws: VipsError.tooManyPixels(width: 200, height: 100, maximum: 19_999)) {
            try VipsImage(bytes: png, maximumPixels: 19_999)
        }
        #expect(try VipsImage(bytes: png, maximumPixels: 20_000).width == 200)
    }

    @Test func refusesWhatIsNotAnImage() {
        #expect {
            try VipsImage(bytes: Array("name,price\nchair,10\n".utf8))
        } throws: { error in
            guard case .notAnImage = error as? VipsError else { return false }
            return true
        }
    }

    /// A PNG cut in half has a good header and broken pixels: opening works, decoding throws.
    @Test func brokenPixelsThrowWhenDecoded() throws {
        let png = try VipsImage.syntheticPhoto(width: 200, height: 200, format: .png)
        let cut = Array(png.prefix(png.count / 2))

        let image = try VipsImage(bytes: cut)

        #expect(image.width == 200)
        #expect {
            try image.thumbnail(width: 100).encoded(as: .webp)
        } throws: { error in
            guard case .decodingFailed = error as? VipsError else { return false }
            return true
        }
    }

    /// Many images opened and dropped in parallel: libvips starts once, and no image outlives
    /// the buffer it reads.
    @Test func worksFromManyThreads() async throws {
        let jpeg = try VipsImage.syntheticPhoto(width: 400, height: 300, format: .jpeg)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for width in 1...16 {
                group.addTask { try VipsImage(bytes: jpeg).thumbnail(width: width * 10).encoded(as: .webp).count }
            }
            for try await size in group { #expect(size > 0) }
        }
    }
}
