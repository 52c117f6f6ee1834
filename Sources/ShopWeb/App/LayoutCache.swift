import HTML
import ShopCore
import Synchronization
import Zlib

/// The layout around a page (`Views.page`: head, top bar, banners, footer with the theme
/// picker, tab bar), rendered once per look and kept, so a shopper's page no longer renders it
/// per request (it was 22 % of a shopper's category page, issue #14).
///
/// A look is everything the layout shows except the badge counts and the parts that show the
/// page's own title or address (`Views.PathBlock`: the title, the language links and picker, the
/// theme links, the banner's way back): language, theme, list or grid, tab, the account's first
/// name, the banner's email. It is rendered once with a marker for each badge and each such
/// part, cut into pieces, and each request joins the pieces with its own badges and its own
/// rendering of those parts — the same bytes `Views.page` gives (`LayoutCacheTests`). So every
/// page of one look shares one kept layout: before, the page's address was part of the look,
/// and a category page the page cache did not have (a new page, sort or filter) rendered its
/// whole layout (5 % of the server's samples, issue #14). The CSRF token and hearts stay markers, filled later for every page
/// (`Personalization`). Pages with a flash message are rendered the ordinary way (one request
/// each, never worth keeping). Nothing here depends on the catalog, so entries never go stale;
/// past `capacity` looks the memory starts over.
///
/// A look's layout at one address (title, address) is kept too, those parts rendered, for the
/// `addressCapacity` latest addresses: a shopper going back to a page joins only the badges.
/// Rendering the parts on every request was 12 % of a shopper's category page.
final class LayoutCache: Sendable {
    /// A layout with one request's badges, cut where `<main>`'s content goes.
    struct Shell {
        var head: [UInt8]
        var tail: [UInt8]
        /// Where a kept shell's head and tail are compressed, once each (nil for a shell made
        /// for one request: a page with a flash message).
        var compressed: (head: CompressedSlot, tail: CompressedSlot)?
        /// Where `</body>` starts in `tail` (the first-visit introduction goes there).
        var tailBodyEnd: Int?

        init(head: [UInt8], tail: [UInt8], kept: Bool = false) {
            self.head = head
            self.tail = tail
            compressed = kept ? (CompressedSlot(level: .fast), CompressedSlot(level: .fast)) : nil
            tailBodyEnd = CompressedPage.bodyEnd(in: tail)
        }
    }

    /// A look at one address, kept: its template, and its shells by badge counts, joined and
    /// compressed once each (a shopper's page found its layout's compressed form by the bytes'
    /// checksum in `PageMemo`, and joined the badges in, on every request: ~5 % of the page).
    private final class AtAddress: Sendable {
        let template: Template
        let shells = Mutex<[Badges: Shell]>([:])
        /// Most shells kept for one address (badge counts a shopper's cart passes through).
        static let shellCapacity = 4

        init(_ template: Template) { self.template = template }
    }

    /// A layout's two badge counts.
    private struct Badges: Hashable {
        var cart: Int
        var favorites: Int
    }

    /// What the layout shows besides the badge counts and the page's title and address: the
    /// layout with both counts at zero, no title, and an empty address.
    private struct Look: Hashable {
        /// The look at an empty address.
        var blank: Address

        init(_ layout: LayoutModel, mainClass: String) {
            var layout = layout
            layout.title = ""
            layout.returnPath = ""
            layout.alternates = layout.alternates.map { _ in LanguageAlternates(path: "", publicURL: nil) }
            blank = Address(layout, mainClass: mainClass)
        }
    }

    /// A piece of a kept layout: bytes that are the same for the look, a badge, or a part
    /// showing the page's title or address.
    private enum Piece: Sendable {
        case fixed([UInt8])
        case badge(Views.BadgeKind)
        case block(Views.PathBlock)
    }

    /// A kept layout: the pieces before and after `<main>`'s content.
    private struct Template: Sendable {
        var head: [Piece]
        var tail: [Piece]
    }

    /// A look at one address: the layout with both counts at zero, title and address kept.
    private struct Address: Hashable {
        var layout: LayoutModel
        var mainClass: String

        init(_ layout: LayoutModel, mainClass: String) {
            self.layout = layout
            self.layout.cartCount = 0
            self.layout.favoritesCount = 0
            self.mainClass = mainClass
        }
    }

    private let templates = Mutex<[Look: Template]>([:])
    /// Templates whose title and address parts are rendered (only badges left to join).
    private let addresses = Mutex<[Address: AtAddress]>([:])
    /// How many looks are kept (for tests).
    var keptLookCount: Int { templates.withLock { $0.count } }
    /// How many looks at an address are kept (for tests).
    var keptAddressCount: Int { addresses.withLock { $0.count } }
    /// How many shells (a look at an address with its badges) are kept (for tests).
    var keptShellCount: Int { addresses.withLock { Array($0.values) }.reduce(0) { $0 + $1.shells.withLock { $0.count } } }
    /// Most looks kept.
    let capacity: Int
    /// Most looks at an address kept (each about the layout's size, ~7 KB, with up to
    /// `AtAddress.shellCapacity` shells and their compressed pieces, ~10 KB each).
    let addressCapacity: Int

    /// An empty cache of at most `capacity` looks and `addressCapacity` looks at an address.
    init(capacity: Int = 4_096, addressCapacity: Int = 1_024) {
        self.capacity = capacity
        self.addressCapacity = addressCapacity
    }

    /// The layout for `layout` around a page whose `<main>` has `mainClass`, with its badges.
    func shell(_ layout: LayoutModel, mainClass: String) -> Shell {
        guard layout.flash == nil else {
            return Self.split(Views.page(layout, mainClass: mainClass) { Node.raw(unsafe: Self.mainMarker) })
        }
        let address = Address(layout, mainClass: mainClass)
        let atAddress = addresses.withLock { $0[address] } ?? {
            let made = AtAddress(Self.rendering(blocksOf: lookTemplate(layout, mainClass: mainClass), layout))
            addresses.withLock { kept in
                if kept.count >= addressCapacity { kept.removeAll(keepingCapacity: true) }
                kept[address] = made
            }
            return made
        }()
        let badges = Badges(cart: layout.cartCount, favorites: layout.favoritesCount)
        if let kept = atAddress.shells.withLock({ $0[badges] }) { return kept }
        let template = atAddress.template
        let cart = Views.badgeBytes(layout.cartCount, kind: .cart)
        let favorites = Views.badgeBytes(layout.favoritesCount, kind: .favorites)
        func join(_ pieces: [Piece]) -> [UInt8] {
            var output: [UInt8] = []
            output.reserveCapacity(pieces.reduce(0) { if case let .fixed(bytes) = $1 { $0 + bytes.count } else { $0 + 128 } })
            for piece in pieces {
                switch piece {
                case let .fixed(bytes): output += bytes
                case .badge(.cart): output += cart
                case .badge(.favorites): output += favorites
                case .block: preconditionFailure("a template at an address has its blocks rendered")
                }
            }
            return output
        }
        let shell = Shell(head: join(template.head), tail: join(template.tail), kept: true)
        atAddress.shells.withLock { shells in
            if shells.count >= AtAddress.shellCapacity { shells.removeAll(keepingCapacity: true) }
            shells[badges] = shell
        }
        return shell
    }

    /// The kept template of `layout`'s look, made and kept on first use.
    private func lookTemplate(_ layout: LayoutModel, mainClass: String) -> Template {
        let look = Look(layout, mainClass: mainClass)
        if let kept = templates.withLock({ $0[look] }) { return kept }
        let made = Self.template(layout, mainClass: mainClass)
        templates.withLock { kept in
            if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
            kept[look] = made
        }
        return made
    }

    /// `template` with each title or address part rendered for `layout`, runs of bytes joined.
    private static func rendering(blocksOf template: Template, _ layout: LayoutModel) -> Template {
        func resolve(_ pieces: [Piece]) -> [Piece] {
            var resolved: [Piece] = []
            var run: [UInt8] = []
            for piece in pieces {
                switch piece {
                case let .fixed(bytes): run += bytes
                case let .block(block): run += render(block.render(layout), reservingCapacity: 1_024)
                case .badge:
                    if !run.isEmpty { resolved.append(.fixed(run)) }
                    run = []
                    resolved.append(piece)
                }
            }
            if !run.isEmpty { resolved.append(.fixed(run)) }
            return resolved
        }
        return Template(head: resolve(template.head), tail: resolve(template.tail))
    }

    /// The whole page: the layout for `layout` around `main` (rendered `<main>` content).
    func document(_ layout: LayoutModel, mainClass: String, main: [UInt8]) -> [UInt8] {
        let shell = shell(layout, mainClass: mainClass)
        var document: [UInt8] = []
        document.reserveCapacity(shell.head.count + main.count + shell.tail.count)
        document += shell.head
        document += main
        document += shell.tail
        return document
    }

    /// Stands for `<main>`'s content while the layout around it is rendered.
    private static let mainMarker = "<!--layout:main-->"
    private static let mainMarkerBytes = Array(mainMarker.utf8)

    /// The page rendered around the main marker, cut at it.
    private static func split(_ shell: [UInt8]) -> Shell {
        guard let cut = ByteSearch.firstIndex(of: mainMarkerBytes, in: shell) else { preconditionFailure("the layout lost <main>") }
        return Shell(head: Array(shell[..<cut]), tail: Array(shell[(cut + mainMarkerBytes.count)...]))
    }

    /// The look rendered once, badges as markers, cut into pieces.
    private static func template(_ layout: LayoutModel, mainClass: String) -> Template {
        var marked = layout
        marked.badgesAsMarkers = true
        let shell = split(Views.page(marked, mainClass: mainClass) { Node.raw(unsafe: mainMarker) })
        return Template(head: pieces(shell.head), tail: pieces(shell.tail))
    }

    /// Every marker a template holds, with the piece it stands for.
    private static let markers: [(bytes: [UInt8], piece: Piece)] =
        Views.BadgeKind.allCases.map { ($0.markerBytes, Piece.badge($0)) }
        + Views.PathBlock.allCases.map { (Array($0.marker.utf8), Piece.block($0)) }

    /// `bytes` cut at each marker.
    private static func pieces(_ bytes: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        while let (at, marker) = markers.compactMap({ marker in
            ByteSearch.firstIndex(of: marker.bytes, in: bytes, from: start).map { ($0, marker) }
        }).min(by: { $0.0 < $1.0 }) {
            if at > start { pieces.append(.fixed(Array(bytes[start..<at]))) }
            pieces.append(marker.piece)
            start = at + marker.bytes.count
        }
        if start < bytes.count { pieces.append(.fixed(Array(bytes[start...]))) }
        return pieces
    }
}
