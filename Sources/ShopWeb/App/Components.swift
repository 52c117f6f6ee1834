import HTML
import ShopCore

/// A product card in a grid: image, title, vendor, price (with "was" price), rating.
struct ProductCard: Component {
    var model: ProductCardModel
    /// The page the heart's form returns to without JavaScript.
    var returnTo: String
    /// 2 in a grid right under the page's `h1` (category, search, favorites), 3 under an `h2`, so
    /// headings never skip a level (axe's `heading-order`).
    var headingLevel = 3
    /// The picture loads at once: a card of a grid's first row (above the fold).
    var eager = false

    var body: Node {
        article(.class(model.isSoldOut ? "card card-sold-out" : "card")) {
            Personalization.heart(productID: Product.ID(rawValue: model.productID), returnTo: returnTo)
            a(.class("card-link"), .href(model.href)) {
                div(.class("card-media")) {
                    if let image = model.image {
                        ProductPicture(image: image, alt: model.imageAlt, sizes: ProductPicture.cardSizes,
                                       boxWidth: 400, boxHeight: 400, eager: eager)
                    }
                    if model.isSoldOut {
                        span(.class("pill pill-muted")) { model.soldOutText }
                    } else if model.compareAtPrice != nil {
                        span(.class("pill pill-sale")) { model.saleText }
                    }
                }
                div(.class("card-body")) {
                    if !model.vendor.isEmpty { p(.class("card-vendor")) { model.vendor } }
                    if headingLevel == 2 {
                        h2(.class("card-title")) { model.title }
                    } else {
                        h3(.class("card-title")) { model.title }
                    }
                    PriceLine(price: model.price, compareAtPrice: model.compareAtPrice)
                    if let rating = model.rating { RatingStars(model: rating) }
                }
            }
            QuickAdd(model: model, returnTo: returnTo)
        }
    }
}

/// "Add" on a product card: one of the default variant without leaving the page (a form POST that
/// comes back here; `app.js` posts it in the background and updates the badge). A product with
/// several variants links to its page to choose one instead.
struct QuickAdd: Component {
    var model: ProductCardModel
    var returnTo: String

    var body: Node {
        div(.class("card-actions")) {
            if model.isSoldOut {
                span(.class("stock stock-out small")) { model.soldOutText }
            } else if model.hasOptions {
                a(.class("button button-small button-wide"), .href(model.href + "#options")) { model.chooseText }
            } else {
                form(.class("quick-add-form"), .method("post"), .action(SiteRoute.cart(.add).path)) {
                    Personalization.csrfField
                    input(.type("hidden"), .name("product"), .value(model.handle))
                    input(.type("hidden"), .name("quantity"), .value("1"))
                    input(.type("hidden"), .name("return_to"), .value(returnTo))
                    button(.type("submit"), .class("button button-small button-primary button-wide")) { model.addText }
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

    var body: Node {
        p(.class(large ? "price price-large" : "price")) {
            span(.class(compareAtPrice == nil ? "price-now" : "price-now price-sale")) { price }
            if let compareAtPrice { del(.class("price-was")) { compareAtPrice } }
        }
    }
}

/// Five stars filled to the rating, and the count.
struct RatingStars: Component {
    var model: RatingModel

    var body: Node {
        p(.class("rating"), .title(model.label)) {
            // Stars are drawn by the stylesheet (a masked star image), not 10 inline SVGs per card.
            span(.class("stars"), .role("img"), .aria("label", model.label)) {
                span(.class("stars-fill fill-\((model.percent + 5) / 10 * 10)")) {}
            }
            span(.class("rating-count")) { model.countText }
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
        let loading = Attribute.loading(eager ? "eager" : "lazy")
        let classAttribute = className.map { Attribute.class($0) } ?? .boolean("data-picture", false)
        let webp = ImageRenditions.renditions(of: image, format: .webp)
        let fallback = ImageRenditions.renditions(of: image, format: ImageRenditions.fallbackFormat(hasAlpha: image.hasAlpha))
        guard let width = image.width, let height = image.height, let largest = fallback.last else {
            return img(classAttribute, .src(image.url), .alt(alt), .width(boxWidth), .height(boxHeight), loading, .decoding("async"))
        }
        return picture {
            source(.type("image/webp"), .srcset(Self.srcset(webp)), .sizes(sizes))
            img(classAttribute, .src(largest.url), .srcset(Self.srcset(fallback)), .sizes(sizes), .alt(alt),
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
