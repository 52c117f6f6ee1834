import HTML
import ShopCore

/// A product card in a grid: image, title, vendor, price (with "was" price), rating.
///
/// Written straight to bytes (`HTMLWriter`), as are its parts (the heart, the picture, the price,
/// the stars, quick add): a listing repeats it 24 times, and as a node tree the cards were about
/// a fifth of an uncached category page's CPU (issue #14).
struct ProductCard: Component {
    var model: ProductCardModel
    /// The page the heart's form returns to without JavaScript.
    var returnTo: String
    /// 2 in a grid right under the page's `h1` (category, search, favorites), 3 under an `h2`, so
    /// headings never skip a level (axe's `heading-order`).
    var headingLevel = 3
    /// The picture loads at once: a card of a grid's first row (above the fold).
    var eager = false
    /// The card is an anchor (`id="product-…"`) its forms return to, so a heart or an add without
    /// JavaScript comes back to the card, not to the top of a long list (a fresh tester). Only in
    /// a page's one list: a product shown twice on a page would repeat its id.
    var anchored = false

    var body: Node {
        var writer = HTMLWriter(reservingCapacity: 2_048)
        write(into: &writer)
        return writer.node
    }

    func write(into writer: inout HTMLWriter) {
        // Only an anchored card builds its anchor: 24 cards per uncached list page.
        let anchor = anchored ? "product-" + String(model.productID) : nil
        let returnTo = anchor.map { self.returnTo + "#" + $0 } ?? self.returnTo
        let cardClass = model.isSoldOut ? "card card-sold-out" : "card"
        writer.element("article", .class(cardClass), anchor.map { .id($0) } ?? .boolean("id", false)) { writer in
            Personalization.writeHeart(productID: Product.ID(rawValue: model.productID), returnTo: returnTo, into: &writer)
            writer.element("a", .class("card-link"), .href(model.href)) { writer in
                writer.element("div", .class("card-media")) { writer in
                    if let image = model.image {
                        ProductPicture(image: image, alt: model.imageAlt, sizes: ProductPicture.cardSizes,
                                       boxWidth: 400, boxHeight: 400, eager: eager).write(into: &writer)
                    }
                    if model.isSoldOut {
                        writer.element("span", .class("pill pill-muted"), text: model.soldOutText)
                    } else if model.compareAtPrice != nil {
                        writer.element("span", .class("pill pill-sale"), text: model.saleText)
                    }
                }
                writer.element("div", .class("card-body")) { writer in
                    if !model.vendor.isEmpty { writer.element("p", .class("card-vendor"), text: model.vendor) }
                    if headingLevel == 2 {
                        writer.element("h2", .class("card-title"), text: model.title)
                    } else {
                        writer.element("h3", .class("card-title"), text: model.title)
                    }
                    PriceLine(price: model.price, compareAtPrice: model.compareAtPrice).write(into: &writer)
                    if let rating = model.rating { RatingStars(model: rating).write(into: &writer) }
                }
            }
            QuickAdd(model: model, returnTo: returnTo).write(into: &writer)
        }
    }
}

/// A grid of product cards (`<div class="grid">`), written with one `HTMLWriter`: a listing's
/// 24 cards are one piece of the page, not 24 (issue #14).
struct ProductGrid: Component {
    var cards: [ProductCardModel]
    var returnTo: String
    var headingLevel = 3
    /// How many of the first cards load their pictures at once (the first row).
    var eagerCount = 0
    /// The page's one list (category, search, all products): cards are anchors (`ProductCard.anchored`).
    var anchored = false

    var body: Node {
        var writer = HTMLWriter(reservingCapacity: 2_048 * (cards.count + 1))
        writer.element("div", .class("grid")) { writer in
            for (index, card) in cards.enumerated() {
                ProductCard(model: card, returnTo: returnTo, headingLevel: headingLevel, eager: index < eagerCount,
                            anchored: anchored)
                    .write(into: &writer)
            }
        }
        return writer.node
    }
}

/// "Add" on a product card: one of the default variant without leaving the page (a form POST that
/// comes back here; `app.js` posts it in the background and updates the badge). A product with
/// several variants links to its page to choose one instead.
struct QuickAdd {
    var model: ProductCardModel
    var returnTo: String

    func write(into writer: inout HTMLWriter) {
        writer.element("div", .class("card-actions")) { writer in
            if model.isSoldOut {
                writer.element("span", .class("stock stock-out small"), text: model.soldOutText)
            } else if model.hasOptions {
                writer.element("a", .class("button button-small button-wide"), .href(model.href + "#options"),
                               text: model.chooseText)
            } else {
                writer.element("form", .class("quick-add-form"), .method("post"), .action(SiteRoute.cart(.add).path)) { writer in
                    writer.raw(unsafe: Personalization.csrfMarker)
                    writer.void("input", .type("hidden"), .name("product"), .value(model.handle))
                    writer.void("input", .type("hidden"), .name("quantity"), .value("1"))
                    writer.void("input", .type("hidden"), .name("return_to"), .value(returnTo))
                    writer.element("button", .type("submit"), .class("button button-small button-primary button-wide"),
                                   text: model.addText)
                }
            }
        }
    }
}

/// Grid / list switch for product lists; which one is on is shown by the body class, so the
/// cached page is the same for everyone.
struct LayoutToggle: Component {
    var returnTo: String
    var l10n: Localizer

    var body: Node {
        nav(.class("layout-toggle"), .aria("label", l10n(.layoutGrid) + " / " + l10n(.layoutList))) {
            a(.class("toggle-grid"), .href(SiteRoute.catalog(.layout("grid", returnTo: returnTo)).path), .data("layout", "grid")) {
                l10n(.layoutGrid)
            }
            a(.class("toggle-list"), .href(SiteRoute.catalog(.layout("list", returnTo: returnTo)).path), .data("layout", "list")) {
                l10n(.layoutList)
            }
        }
    }
}

/// Price with the struck-through "was" price when on sale.
struct PriceLine: Component {
    var price: String
    var compareAtPrice: String?
    var large = false
    /// Writes an empty, hidden "was" price when there is none, for the product page's script to
    /// fill when the shopper picks a variant on sale.
    var keepsWasSlot = false

    var body: Node {
        var writer = HTMLWriter(reservingCapacity: 128)
        write(into: &writer)
        return writer.node
    }

    func write(into writer: inout HTMLWriter) {
        writer.element("p", .class(large ? "price price-large" : "price")) { writer in
            writer.element("span", .class(compareAtPrice == nil ? "price-now" : "price-now price-sale"), text: price)
            if let compareAtPrice {
                writer.element("del", .class("price-was"), text: compareAtPrice)
            } else if keepsWasSlot {
                writer.element("del", .class("price-was"), .hidden, text: "")
            }
        }
    }
}

/// Five stars filled to the rating, and the count.
struct RatingStars: Component {
    var model: RatingModel

    var body: Node {
        var writer = HTMLWriter(reservingCapacity: 256)
        write(into: &writer)
        return writer.node
    }

    func write(into writer: inout HTMLWriter) {
        writer.element("p", .class("rating"), .title(model.label)) { writer in
            // Stars are drawn by the stylesheet (a masked star image), not 10 inline SVGs per card.
            writer.element("span", .class("stars"), .role("img"), .aria("label", model.label)) { writer in
                writer.element("span", .class("stars-fill fill-\((model.percent + 5) / 10 * 10)"), text: "")
            }
            writer.element("span", .class("rating-count"), text: model.countText)
        }
    }
}

/// A category tile: initial, name, count.
struct CategoryTile: Component {
    var model: CategoryLinkModel

    var body: Node {
        a(.class("category-tile tone-\(model.tone)"), .href(model.href)) {
            if let imageURL = model.imageURL {
                span(.class("category-image")) { img(.src(imageURL), .alt(""), .width(88), .height(88), .loading("lazy")) }
            } else {
                span(.class("category-initial"), .aria("hidden", "true")) { model.initial }
            }
            span(.class("category-text")) {
                span(.class("category-name")) { model.name }
                span(.class("category-count")) { model.countText }
            }
        }
    }
}

/// Previous / next with the page status.
struct Pagination: Component {
    var model: PaginationModel
    var localizer: Localizer

    var body: Node {
        nav(.class("pagination"), .aria("label", model.status)) {
            if let previous = model.previousHref {
                a(.class("button"), .href(previous), .rel("prev")) { localizer(.paginationPrevious) }
            } else {
                span(.class("button button-disabled"), .aria("disabled", "true")) { localizer(.paginationPrevious) }
            }
            span(.class("pagination-status")) { model.status }
            if let next = model.nextHref {
                a(.class("button"), .href(next), .rel("next")) { localizer(.paginationNext) }
            } else {
                span(.class("button button-disabled"), .aria("disabled", "true")) { localizer(.paginationNext) }
            }
        }
    }
}

/// A labelled form field with its problems listed under it (`aria-describedby` ties them together).
struct FormField: Component {
    var label: String
    var name: String
    var id: String
    var type: String = "text"
    var value: String = ""
    var errors: [String] = []
    var autocomplete: String
    var hint: String?
    var required = true
    /// The longest value the server accepts, when it has a limit (`maxlength`).
    var maxLength: Int?

    var body: Node {
        div(.class(errors.isEmpty ? "field" : "field field-invalid")) {
            HTML.label(.for(id)) { label }
            input(.type(type), .name(name), .id(id), .value(value),
                  .autocomplete(autocomplete), .required(required),
                  maxLength.map { .maxlength($0) } ?? .boolean("maxlength", false),
                  .aria("describedby", "\(id)-help"), .aria("invalid", errors.isEmpty ? "false" : "true"))
            div(.id("\(id)-help")) {
                if let hint { p(.class("field-hint")) { hint } }
                if !errors.isEmpty {
                    ul(.class("field-errors")) { for error in errors { li { error } } }
                }
            }
        }
    }
}

/// A product picture. An image stored in the media library with its size known is a `<picture>`:
/// a WebP `srcset` and a JPEG (or PNG) `srcset` of its renditions (`ImageRenditions`), so the
/// browser picks the smallest file that fills `sizes` — a phone never downloads the full-size
/// photo —, with the real `width` and `height` (the box is reserved before it loads). Other
/// images (remote URLs, the demo's SVGs) are a plain `<img>` in a box of `boxWidth`×`boxHeight`.
///
/// Below the fold it loads lazily; `eager` is for the first product picture and the first row
/// of a grid. A stored file that has gone missing is answered by `/media/` with a placeholder
/// picture (`StaticFiles.media`), never a broken-image icon.
struct ProductPicture: Component {
    var image: ProductImage
    var alt: String
    /// The `sizes` attribute: how wide the picture is drawn, e.g. `"(min-width: 600px) 360px, 50vw"`.
    var sizes: String
    /// The box's size in CSS pixels when the image's own size is unknown.
    var boxWidth: Int
    var boxHeight: Int
    var eager = false
    var className: String?

    var body: Node {
        var writer = HTMLWriter(reservingCapacity: 512)
        write(into: &writer)
        return writer.node
    }

    func write(into writer: inout HTMLWriter) {
        let loading = Attribute.loading(eager ? "eager" : "lazy")
        let classAttribute = className.map { Attribute.class($0) } ?? .boolean("data-picture", false)
        let fallback = ImageRenditions.renditions(of: image, format: ImageRenditions.fallbackFormat(hasAlpha: image.hasAlpha))
        guard let width = image.width, let height = image.height, let largest = fallback.last else {
            writer.void("img", classAttribute, .src(image.url), .alt(alt), .width(boxWidth), .height(boxHeight), loading,
                        .decoding("async"))
            return
        }
        let webp = ImageRenditions.renditions(of: image, format: .webp)
        writer.element("picture") { writer in
            writer.void("source", .type("image/webp"), .srcset(Self.srcset(webp)), .sizes(sizes))
            writer.void("img", classAttribute, .src(largest.url), .srcset(Self.srcset(fallback)), .sizes(sizes), .alt(alt),
                        .width(width), .height(height), loading, .decoding("async"))
        }
    }

    /// A card's width: half the screen on a phone (2 columns), a third from 600px, at most a
    /// third of the 1120px content.
    static let cardSizes = "(min-width: 1120px) 360px, (min-width: 600px) 33vw, 50vw"
    /// The product page's picture: the screen's width on a phone, about half the content beside
    /// the text from 900px.
    static let gallerySizes = "(min-width: 900px) 580px, 100vw"
    /// How many cards a grid's first row shows on a wide screen: those load eagerly.
    static let eagerCards = 3

    /// `"/media/a-320.webp 320w, /media/a-640.webp 640w"`.
    static func srcset(_ renditions: [ImageRenditions.Rendition]) -> String {
        renditions.map { "\($0.url) \($0.width)w" }.joined(separator: ", ")
    }
}
