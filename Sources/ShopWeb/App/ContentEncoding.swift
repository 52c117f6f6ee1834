import Brotli
import Foundation
import HTTPServer
import LibDeflate
import Synchronization
import Zlib

/// `Content-Encoding: gzip` for text answers (pages, CSS, JavaScript, JSON, SVG) when the client
/// accepts it — a category page's 20–27 KB of HTML and the 30 KB stylesheet travel to a phone at
/// a fifth of that (issue #14).
///
/// An answer with a strong `ETag` (static assets, cached API reads) is the same bytes for
/// everyone: its gzip form is made once at the best level and kept (``CompressedBodies``), and
/// sent with the weak form of the tag — two encodings of one representation must not share a
/// strong tag, and `If-None-Match` compares weakly, so a revalidation of either gets its 304.
/// Pages differ per request (CSRF tokens, the badge): a cached page is joined from pieces
/// compressed once (`CompressedPage`, filled in by `ShopApp.personalize`); any other page is
/// compressed here, whole, by libdeflate at its fastest level (three times zlib's fastest speed
/// on a cart page, and smaller: `LibDeflate`).
///
/// Brotli (`br`) is used for one kind of answer only: a body that never changes under its URL
/// (`Cache-Control: … immutable` — the stylesheet, the script and media under their hashed
/// names). Made once at quality 11 it is 14–15 % smaller than gzip at level 9 (the stylesheet
/// 9.8 → 8.5 KB), and it costs ≈ 1 µs of CPU per byte, once per release. Everything else stays
/// gzip: a page is joined per request from gzip pieces, which brotli has no way to do, and a
/// cached API read changes with the catalog, so its first reader would wait for quality 11
/// (docs/BENCHMARKS.md, issue #14).
/// Every answer that could be compressed says `Vary: Accept-Encoding`, compressed or not.
enum ContentEncoding {
    /// Bodies below this stay as they are: the gzip frame would eat the gain.
    /// (512: the demo's 1 KB SVG pictures travel at half — issue #14's page weight, bench/page-weight.)
    static let minimumBytes = 512

    /// Media types worth compressing (images other than SVG and fonts already are).
    static func isCompressible(_ contentType: String) -> Bool {
        let type = contentType.lowercased()
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/javascript")
            || type.hasPrefix("image/svg+xml") || type.hasPrefix("application/manifest+json")
            || type.hasPrefix("application/xml")
    }

    /// The codings a client takes and how much it wants each, from its `Accept-Encoding`
    /// header (read once per request).
    struct Accepted: Equatable {
        /// `gzip`'s (or its old name `x-gzip`'s) weight, 0 when refused.
        var gzipWeight = 0.0
        /// `br`'s weight, 0 when refused.
        var brotliWeight = 0.0

        /// Whether gzip may be sent.
        var gzip: Bool { gzipWeight > 0 }
        /// Whether brotli may be sent.
        var brotli: Bool { brotliWeight > 0 }
        /// Whether brotli, when both would do, is what the client wants: not ranked below gzip.
        var prefersBrotli: Bool { brotli && brotliWeight >= gzipWeight }
    }

    /// The codings a request accepts, from all its `Accept-Encoding` lines taken as one list
    /// (RFC 9110 §5.3).
    static func accepted(_ request: Request) -> Accepted {
        let lines = request.headers.values(for: "Accept-Encoding")
        // Every request: the usual single line is read as it is, without joining a copy.
        return accepted(lines.count <= 1 ? lines.first : lines.joined(separator: ","))
    }

    /// Which codings an `Accept-Encoding` header accepts, and with what weight (RFC 9110
    /// §12.5.3): a coding named, or `*` when the coding is not named; the first mention of a
    /// coding counts. A weight must be a qvalue (`0` to `1` with at most three decimals): anything
    /// else (`1.5`, `inf`, `high`, `1.0000`, an empty `q=`) refuses the coding, as `q=0` does.
    ///
    /// Read on bytes in place, every request: Foundation's `trimmingCharacters` goes through
    /// `NSString` on Linux and was 2 % of a shopper's category page, and splitting into arrays of
    /// slices and lower-cased strings was 2 % of a first visit (issue #14).
    static func accepted(_ header: String?) -> Accepted {
        guard var header else { return Accepted() }
        return header.withUTF8 { bytes in
            var gzip: Double?, brotli: Double?, star: Double?
            var rest = bytes[...]
            while !rest.isEmpty {
                let item = rest.prefix { $0 != UInt8(ascii: ",") }
                rest = rest[item.endIndex...].dropFirst()
                let coding = item.prefix { $0 != UInt8(ascii: ";") }
                var weight = 1.0
                var parameters = item[coding.endIndex...].dropFirst()
                while !parameters.isEmpty {
                    let parameter = parameters.prefix { $0 != UInt8(ascii: ";") }
                    parameters = parameters[parameter.endIndex...].dropFirst()
                    let name = parameter.prefix { $0 != UInt8(ascii: "=") }
                    let value = parameter[name.endIndex...].dropFirst()
                    if name.trimmingOptionalWhiteSpace.equalsIgnoringASCIICase("q") {
                        weight = qvalue(value.trimmingOptionalWhiteSpace) ?? 0
                    }
                }
                let name = coding.trimmingOptionalWhiteSpace
                if name.equalsIgnoringASCIICase("gzip") || name.equalsIgnoringASCIICase("x-gzip") {
                    gzip = gzip ?? weight
                } else if name.equalsIgnoringASCIICase("br") {
                    brotli = brotli ?? weight
                } else if name.equalsIgnoringASCIICase("*") {
                    star = star ?? weight
                }
            }
            return Accepted(gzipWeight: gzip ?? star ?? 0, brotliWeight: brotli ?? star ?? 0)
        }
    }

    /// A qvalue (`qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`), or nil.
    private static func qvalue(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
        guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1"), text.count <= 5 else {
            return nil
        }
        if text.count == 1 { return Double(first - UInt8(ascii: "0")) }
        guard text[text.startIndex + 1] == UInt8(ascii: ".") else { return nil }
        let decimals = text.dropFirst(2)
        guard decimals.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        if first == UInt8(ascii: "1") { return decimals.allSatisfy { $0 == UInt8(ascii: "0") } ? 1 : nil }
        // "0.d", "0.dd" or "0.ddd": the thousandths, divided once (correctly rounded, as parsing is).
        var thousandths = 0, scale = 100
        for digit in decimals {
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return Double(thousandths) / 1000
    }

    /// Says a body was gzipped already (a page joined from kept pieces, `CompressedPage`).
    static func markGzipped(_ response: inout Response) {
        addVary(&response)
        response.headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
    }

    private static func addVary(_ response: inout Response) {
        let vary = response.headers["Vary"]
        if vary?.lowercased().contains("accept-encoding") != true {
            response.headers.replaceOrAdd(name: "Vary", value: vary.map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding")
        }
    }

    /// Compresses `response` when the client takes gzip or brotli (`accepted`, read once per
    /// request) and the body is worth it; see the type's comment.
    static func apply(to response: inout Response, accepted: Accepted, kept: CompressedBodies) {
        guard response.body.count >= minimumBytes, response.headers["Content-Encoding"] == nil,
              let type = response.headers["Content-Type"], isCompressible(type) else { return }
        addVary(&response)
        guard accepted.gzip || accepted.brotli else { return }
        let packed: (bytes: [UInt8], coding: CompressedBodies.Coding)?
        if let tag = response.headers["ETag"], !tag.hasPrefix("W/") {
            let immutable = response.headers["Cache-Control"]?.contains("immutable") == true
            let coding: CompressedBodies.Coding? = immutable && accepted.prefersBrotli ? .brotli
                : accepted.gzip ? .gzip : immutable && accepted.brotli ? .brotli : nil
            packed = coding.flatMap { coding in kept.compressed(response.body, tagged: tag, as: coding).map { ($0, coding) } }
            if packed != nil { response.headers.replaceOrAdd(name: "ETag", value: "W/" + tag) }
        } else if accepted.gzip {
            let compressed = LibDeflate.gzip(response.body, level: .fastest)
            packed = compressed.count < response.body.count ? (compressed, .gzip) : nil
        } else {
            packed = nil
        }
        guard let packed else { return }
        response.body = packed.bytes
        response.headers.replaceOrAdd(name: "Content-Encoding", value: packed.coding.rawValue)
    }
}

/// Compressed bodies (gzip, or brotli for immutable ones) by strong `ETag`, made once. Bounded: past `maximumBytes` the oldest half is
/// dropped (assets and cached reads come back in a moment; nothing is lost but time).
public final class CompressedBodies: Sendable {
    private struct Store {
        var bodies: [String: [UInt8]?] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let store = Mutex(Store())
    /// The most compressed bytes kept.
    public let maximumBytes: Int

    /// An empty store holding at most `maximumBytes` (default 16 MiB).
    public init(maximumBytes: Int = 16 << 20) { self.maximumBytes = maximumBytes }

    /// A `Content-Encoding` made once per body.
    enum Coding: String {
        case gzip
        case brotli = "br"
    }

    /// The `coding` form (best level) of `body`, tagged `tag`, made the first time it is asked
    /// for; nil when it is no smaller than the body (sent as it is then).
    func compressed(_ body: [UInt8], tagged tag: String, as coding: Coding) -> [UInt8]? {
        let key = coding.rawValue + " " + tag
        if let known = store.withLock({ $0.bodies[key] }) { return known }
        let compressed = switch coding {
        case .gzip: Gzip.compress(body, level: .best)
        case .brotli: Brotli.compress(body, quality: .best)
        }
        let kept = compressed.count < body.count ? compressed : nil
        store.withLock { store in
            guard store.bodies[key] == nil else { return }
            store.bodies[key] = kept
            store.order.append(key)
            store.bytes += kept?.count ?? 0
            if store.bytes > maximumBytes {
                let dropped = store.order.prefix(store.order.count / 2 + 1)
                for old in dropped { store.bytes -= store.bodies.removeValue(forKey: old)??.count ?? 0 }
                store.order.removeFirst(dropped.count)
            }
        }
        return kept
    }

    /// Number of bodies kept (tests).
    var count: Int { store.withLock { $0.bodies.count } }
}
