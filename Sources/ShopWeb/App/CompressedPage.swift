import LibDeflate
import ShopCore
import Synchronization
import Zlib

/// A page as gzip pieces (``Gzip/Piece``) with gaps at its personalization markers, so a page that
/// is the same for many visitors but for their CSRF token and hearts is compressed once and
/// answered by joining pieces (issue #14).
///
/// Compressing a 24 KB category page per request, even at zlib's fastest level, cost more than
/// everything else a cached page does (`docs/BENCHMARKS.md`). Now the fixed text is compressed
/// once, in one stream (`Gzip.PieceWriter`), with a gap of the replacement's exact length at
/// each marker — so the pieces refer back across the gaps and compress about as well as the
/// whole page — and each request writes only the CSRF field and the two heart buttons, each as a
/// stored (uncompressed) block (`Gzip.Piece.stored`; a heart is padded to one length whether
/// pressed or not, `Personalization.Replacements`). Compressing them, even alone at the fast
/// level, was ~12 % of a shopper's page, for a few dozen bytes saved once per page (later
/// appearances are back-references either way).
///
/// A replacement is never compressed, let alone together with text an attacker chooses (a
/// reflected search query): the length oracle BREACH needs does not exist for the CSRF secret
/// (the per-page mask of `CSRFMask` stays as a second line).
///
/// The page is a list of ``Run``s, each compressed in its own stream (nothing in one refers into
/// another): a layout head, a kept `<main>`, a layout tail, text inserted between them. What a
/// run becomes for one set of favorites is laid out once (`Gzip.Template`, kept with the run):
/// the fixed text, the hearts, and every place the CSRF field goes — only the CSRF field changes
/// from one request to the next, and it is spliced in (docs/BENCHMARKS.md, twenty-fifth session).
struct CompressedPage: Sendable {
    /// The lengths of the replacements the gaps were left for.
    struct Fills: Hashable, Sendable {
        var csrf: Int
        var heart: Int

        init(_ replacements: Personalization.Replacements) {
            csrf = replacements.csrfInput.count
            heart = replacements.heartOn.count
        }

        func length(of marker: Personalization.Marker) -> Int {
            switch marker {
            case .csrf: csrf
            case .favorite: heart
            case .unknown: 0
            }
        }
    }

    enum Part: Sendable {
        case fixed(Gzip.Piece)
        /// A marker: its text's length in the document, and the gap left for its replacement.
        case marker(Personalization.Marker, length: Int)

        /// Bytes of the uncompressed document (markers as written) this part covers.
        var length: Int {
            switch self {
            case let .fixed(piece): piece.count
            case let .marker(_, length): length
            }
        }
    }

    /// Text compressed in one stream, referring to nothing before it, with the templates made
    /// of it for the visitors who asked so far.
    final class Run: Sendable {
        let parts: [Part]
        /// Bytes of the uncompressed document (markers as written).
        let count: Int
        /// The products of the heart markers, in order.
        private let hearts: [Product.ID]
        private let templates = Mutex<[TemplateKey: (replacements: HeartBytes, template: Gzip.Template)]>([:])
        /// Most templates kept per run, each about the size of the run's compressed pieces: the
        /// one with no heart pressed (most shoppers') and the last other set of favorites seen.
        /// `PageCache` counts a page with half its size more for its pieces and templates.
        static let templateLimit = 2

        init(_ parts: [Part]) {
            self.parts = parts
            count = parts.reduce(0) { $0 + $1.length }
            hearts = parts.compactMap { if case let .marker(.favorite(id), _) = $0 { id } else { nil } }
        }

        /// Templates kept (tests).
        var keptTemplates: Int { templates.withLock { $0.count } }

        /// Which replacements a template was made for, besides the CSRF field's bytes.
        struct TemplateKey: Hashable {
            /// The indexes in `hearts` of the pressed ones.
            var pressed: [Int]
            var csrfLength: Int
            /// The CSRF field's first byte: its back-references begin with it as a literal.
            var csrfFirst: UInt8
        }

        /// The heart buttons a template holds (checked, not hashed, on each use).
        struct HeartBytes: Equatable {
            var on: [UInt8]
            var off: [UInt8]
        }

        /// The run for `replacements`, everything but the CSRF field's bytes laid out.
        func template(for replacements: Personalization.Replacements) -> Gzip.Template {
            var pressed: [Int] = []
            if !replacements.favorites.isEmpty {
                for (index, id) in hearts.enumerated() where replacements.favorites.contains(id) { pressed.append(index) }
            }
            let key = TemplateKey(pressed: pressed, csrfLength: replacements.csrfInput.count,
                                  csrfFirst: replacements.csrfInput.first ?? 0)
            let heartBytes = HeartBytes(on: replacements.heartOn, off: replacements.heartOff)
            if let known = templates.withLock({ $0[key] }), known.replacements == heartBytes { return known.template }
            let template = makeTemplate(replacements, csrfFirst: key.csrfFirst)
            templates.withLock { templates in
                if templates[key] == nil, templates.count >= Self.templateLimit {
                    templates = templates.filter { $0.key.pressed.isEmpty && !key.pressed.isEmpty }
                }
                templates[key] = (heartBytes, template)
            }
            return template
        }

        /// Each distinct replacement (the CSRF field, the pressed and the unpressed heart) is
        /// stored uncompressed where it first appears in the run, and written as a back-reference
        /// to its previous appearance after that (`Gzip.referenceBlocks`): the run's positions are
        /// fixed, since every replacement has its gap's length.
        private func makeTemplate(_ replacements: Personalization.Replacements, csrfFirst: UInt8) -> Gzip.Template {
            let csrfLength = replacements.csrfInput.count
            var template = Gzip.Template(variableLength: csrfLength)
            // The hearts by kind (pressed, unpressed), stored where each first appears.
            let heartBytes = [replacements.heartOn, replacements.heartOff]
            var storedHeart: [Gzip.Piece?] = [nil, nil]
            // Where the CSRF field and each heart kind last appeared.
            var lastCSRF: Int?
            var lastHeart: [Int?] = [nil, nil]
            var position = 0
            for part in parts {
                switch part {
                case let .fixed(piece):
                    template.append(piece)
                    position += piece.count
                case .marker(.unknown, _):
                    continue
                case .marker(.csrf, _):
                    guard csrfLength > 0 else { continue }
                    if let previous = lastCSRF,
                       let blocks = Gzip.referenceBlocks(length: csrfLength, distance: position - previous, first: csrfFirst) {
                        template.appendVariable(reference: blocks)
                    } else {
                        template.appendVariable()
                    }
                    lastCSRF = position
                    position += csrfLength
                case let .marker(.favorite(id), _):
                    let kind = replacements.favorites.contains(id) ? 0 : 1
                    let bytes = heartBytes[kind]
                    let piece = storedHeart[kind] ?? Gzip.Piece.stored(bytes)
                    storedHeart[kind] = piece
                    if let previous = lastHeart[kind], let copy = Gzip.copy(of: piece, bytes: bytes, distance: position - previous) {
                        template.append(copy)
                    } else {
                        template.append(piece)
                    }
                    lastHeart[kind] = position
                    position += bytes.count
                }
            }
            return template
        }
    }

    /// The runs in document order.
    private(set) var runs: [Run]
    /// What the gaps were left for.
    let fills: Fills

    /// Length of the uncompressed document, markers as written.
    var count: Int { runs.reduce(0) { $0 + $1.count } }

    /// Bytes of compressed data the fixed parts hold (for the page cache's budget).
    var compressedCount: Int {
        runs.reduce(0) { total, run in
            run.parts.reduce(total) { if case let .fixed(piece) = $1 { $0 + piece.deflated.count } else { $0 } }
        }
    }

    /// `document` compressed in one stream, split at its markers (gaps of `fills`' lengths) and,
    /// when given, before byte `cut` — where text may be inserted later (`inserting(_:at:)`): what
    /// follows the cut is a run of its own, referring to nothing before it.
    init(_ document: [UInt8], cutBefore cut: Int? = nil, fills: Fills, level: Gzip.Level = .best) {
        let writer = Gzip.PieceWriter(level: level)
        var runs: [Run] = []
        var parts: [Part] = []
        Personalization.walk(document, fixed: { range in
            if let cut, cut > range.lowerBound, cut < range.upperBound {
                parts.append(.fixed(writer.piece(document[range.lowerBound..<cut])))
                runs.append(Run(parts))
                parts = [.fixed(writer.piece(document[cut..<range.upperBound], freshWindow: true))]
            } else {
                if range.lowerBound == cut, !parts.isEmpty {
                    runs.append(Run(parts))
                    parts = []
                }
                parts.append(.fixed(writer.piece(document[range], freshWindow: range.lowerBound == cut)))
            }
        }, marker: { marker, range in
            writer.gap(fills.length(of: marker))
            parts.append(.marker(marker, length: range.count))
        })
        if !parts.isEmpty || runs.isEmpty { runs.append(Run(parts)) }
        self.runs = runs
        self.fills = fills
    }

    /// The offset of the last `</body>` in `document` (where `Onboarding` inserts), if any.
    static func bodyEnd(in document: [UInt8]) -> Int? { ByteSearch.lastIndex(of: bodyEndTag, in: document) }

    private static let bodyEndTag = Array("</body>".utf8)

    /// `lhs` followed by `rhs` (a layout head, a cached `<main>`, a layout tail): each compressed
    /// in its own stream, so neither refers into the other.
    static func + (lhs: CompressedPage, rhs: CompressedPage) -> CompressedPage {
        precondition(lhs.fills == rhs.fills, "pages joined for one visitor")
        var joined = lhs
        joined.runs += rhs.runs
        return joined
    }

    /// `inserted` placed at byte `offset` of the uncompressed document — nil unless runs meet
    /// exactly there (the text after any other place may refer back across it).
    func inserting(_ inserted: CompressedPage, at offset: Int) -> CompressedPage? {
        var position = 0
        for (index, run) in runs.enumerated() {
            if position == offset {
                var result = self
                result.runs.insert(contentsOf: inserted.runs, at: index)
                return result
            }
            position += run.count
            if position > offset { return nil }
        }
        guard position == offset else { return nil }
        var result = self
        result.runs += inserted.runs
        return result
    }

    /// The gzip member of the page with its markers replaced — nil when a replacement's length
    /// is not the one its gap was left for, or the CSRF field holds a NUL byte (its
    /// back-references assume none); the caller then compresses the page the ordinary way.
    func gzip(_ replacements: Personalization.Replacements) -> [UInt8]? {
        guard Fills(replacements) == fills, replacements.csrfInput.count <= 65_535,
              !replacements.csrfInput.contains(0) else { return nil }
        return Gzip.join(runs.map { $0.template(for: replacements) }, filling: replacements.csrfInput)
    }
}

/// Where a response body's pieces come from, put together once the visitor's replacements are
/// known (`ShopApp.personalize`): documents and `<main>` parts kept with their page-cache entry,
/// the layout around them found by its bytes in `PageMemo`, and insertions (the first-visit
/// introduction) at part boundaries.
struct CompressedBody {
    enum Segment {
        /// Bytes kept in the page cache, compressed once into `slot`.
        case kept(CompressedSlot, bytes: [UInt8], cutBefore: Int?)
        /// Bytes that recur across requests (a layout head or tail), compressed once per `PageMemo`.
        case recurring([UInt8], cutBefore: Int?)

        var count: Int {
            switch self {
            case let .kept(_, bytes, _), let .recurring(bytes, _): bytes.count
            }
        }
    }

    private(set) var segments: [Segment]
    private var insertions: [(offset: Int, bytes: [UInt8])] = []
    /// Length of the body this stands for (markers as written).
    private(set) var count: Int
    /// For a body without markers (a kept document, one `kept` segment): its gzip member
    /// compressed whole, answered while nothing is inserted.
    private let whole: WholeMember?

    /// - Parameters:
    ///   - segments: the body's parts, in order.
    ///   - whole: for a body without markers, where its whole member is kept.
    init(_ segments: [Segment], whole: WholeMember? = nil) {
        self.segments = segments
        self.whole = whole
        count = segments.reduce(0) { $0 + $1.count }
    }

    /// Whether the body is a kept document with nothing inserted: it has no markers to fill (a
    /// document is kept filled, `PageCache.storeDocument`), so no one needs to search its bytes
    /// for one (1.3 % of a first visit).
    var isFilledDocument: Bool { whole != nil && insertions.isEmpty }

    /// Records `bytes` inserted at `offset` of the body.
    mutating func insert(_ bytes: [UInt8], at offset: Int) {
        insertions.append((offset, bytes))
        count += bytes.count
    }

    /// The gzip member of the body for `replacements`; nil when it cannot be joined.
    func gzip(_ replacements: Personalization.Replacements, memo: PageMemo) -> [UInt8]? {
        if insertions.isEmpty, let whole, segments.count == 1, case let .kept(_, bytes, _) = segments[0] {
            return whole.member(of: bytes)
        }
        return join(replacements, memo: memo)
    }

    private func join(_ replacements: Personalization.Replacements, memo: PageMemo) -> [UInt8]? {
        let fills = CompressedPage.Fills(replacements)
        var page: CompressedPage?
        for segment in segments {
            let next: CompressedPage
            switch segment {
            case let .kept(slot, bytes, cut):
                guard let kept = slot.page(for: bytes, cutBefore: cut, fills: fills) else { return nil }
                next = kept
            case let .recurring(bytes, cut): next = memo.page(for: bytes, cutBefore: cut, fills: fills)
            }
            page = page.map { $0 + next } ?? next
        }
        for insertion in insertions {
            let inserted = memo.page(for: insertion.bytes, cutBefore: nil, fills: fills)
            page = page?.inserting(inserted, at: insertion.offset)
        }
        return page?.gzip(replacements)
    }
}

/// The gzip member of a body without markers (a kept document: the same bytes for every
/// visitor), compressed whole by libdeflate rather than joined from zlib pieces: at its fastest
/// level the first time (a search's document is often asked for once: compressing it in pieces
/// at zlib's best level was 13 % of an uncached search), and again at a high level the second
/// time, kept for every visitor after (docs/BENCHMARKS.md, twenty-third session).
final class WholeMember: Sendable {
    private let state = Mutex<(member: [UInt8]?, uses: Int)>((nil, 0))
    init() {}

    /// The member of `document` (always the same bytes for one `WholeMember`).
    func member(of document: [UInt8]) -> [UInt8] {
        let (known, uses) = state.withLock { state in
            state.uses += 1
            return (state.member, state.uses)
        }
        if let known, uses != 2 { return known }
        let member = LibDeflate.gzip(document, level: uses >= 2 ? .high : .fastest)
        state.withLock { state in
            if uses >= 2 || state.member == nil { state.member = member }
        }
        return member
    }
}

/// A cached page's compressed forms, made the first time a client takes gzip (the replacements'
/// lengths are known then) and kept with the entry — one per set of lengths, at most
/// `CompressedSlot.limit` (server-made CSRF tokens all have one length; a client that invents its
/// own cookie of another length gets one more form, and past the limit the page is compressed the
/// ordinary way, never rebuilt per request at the best level).
final class CompressedSlot: Sendable {
    private let kept = Mutex<[CompressedPage.Fills: CompressedPage]>([:])
    static let limit = 4
    /// How hard the pieces are compressed: best for what the page cache keeps, fast for a
    /// shopper's layout (made for each badge count a cart passes through).
    private let level: Gzip.Level

    init(level: Gzip.Level = .best) { self.level = level }

    func page(for bytes: [UInt8], cutBefore cut: Int?, fills: CompressedPage.Fills) -> CompressedPage? {
        let (known, full) = kept.withLock { ($0[fills], $0.count >= Self.limit) }
        if let known { return known }
        guard !full else { return nil }
        let page = CompressedPage(bytes, cutBefore: cut, fills: fills, level: level)
        kept.withLock { if $0.count < Self.limit, $0[fills] == nil { $0[fills] = page } }
        return page
    }
}

/// Compressed pages of bytes that recur across requests — the layout around a shopper's page, the
/// first-visit introduction — found by their bytes. Bounded: when full it starts over.
final class PageMemo: Sendable {
    private struct Key: Hashable {
        var checksum: UInt32
        var count: Int
        var fills: CompressedPage.Fills
    }

    private let pages = Mutex<[Key: [(bytes: [UInt8], page: CompressedPage)]]>([:])
    private let stored = Mutex(0)
    /// Most pages kept.
    let capacity: Int

    init(capacity: Int = 4_096) { self.capacity = capacity }

    /// Pages held (tests).
    var count: Int { pages.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    /// The compressed form of `bytes`, made the first time they are seen with these `fills`
    /// (at the fast level: a shopper's layout changes with their cart).
    func page(for bytes: [UInt8], cutBefore cut: Int?, fills: CompressedPage.Fills) -> CompressedPage {
        let key = Key(checksum: Gzip.checksum(bytes), count: bytes.count, fills: fills)
        if let known = pages.withLock({ $0[key]?.first(where: { $0.bytes == bytes })?.page }) {
            return known
        }
        let page = CompressedPage(bytes, cutBefore: cut, fills: fills, level: .fast)
        let full = stored.withLock { count -> Bool in
            count += 1
            if count > capacity { count = 1; return true }
            return false
        }
        pages.withLock { pages in
            if full { pages.removeAll(keepingCapacity: true) }
            pages[key, default: []].append((bytes, page))
        }
        return page
    }
}
