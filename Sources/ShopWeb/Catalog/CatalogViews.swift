import HTML
import ShopCore

extension Views {
    static func home(_ page: HomePage, l10n: Localizer, returnTo: String) -> Node {
        fragment {
            section(.class("hero")) {
                h1 { l10n(.homeHeroTitle) }
                p { l10n(.homeHeroText) }
            }
            productSearchForm(query: "", l10n: l10n)
            if !page.banners.isEmpty {
                section(.class("banners"), .aria("label", l10n(.campaignsTitle))) {
                    for banner in page.banners { CampaignBanner(model: banner) }
                }
            }
            section(.class("section")) {
                div(.class("section-head")) {
                    h2 { l10n(.homeCategoriesTitle) }
                    a(.href(page.seeAllHref)) { l10n(.seeAll) }
                }
                p { a(.href(Self.allProductsHref)) { l10n(.allProductsLink) } }
                div(.class("category-strip")) {
                    for category in page.categories { CategoryTile(model: category) }
                }
            }
            section(.class("section"), .id("featured")) {
                div(.class("section-head")) {
                    h2 { page.showingRecommendations ? l10n(.homeRecommendationsTitle) : l10n(.homeFeaturedTitle) }
                    nav(.class("layout-toggle"), .aria("label", l10n(.homeFeaturedTitle))) {
                        a(.class(page.showingRecommendations ? "" : "toggle-on"), .href(SiteRoute.catalog(.home).path + "#featured")) {
                            l10n(.homeSeeAll)
                        }
                        a(.class(page.showingRecommendations ? "toggle-on" : ""),
                          .href(SiteRoute.catalog(.homeRecommendations).path + "#featured")) { l10n(.homeSeeRecommendations) }
                    }
                }
                ProductGrid(cards: page.featured, returnTo: returnTo)
            }
        }
    }

    /// The product search box (a GET form to `/search`).
    static func productSearchForm(query: String, l10n: Localizer) -> Node {
        form(.class("search-form"), .method("get"), .action("/search"), .role("search")) {
            label(.class("visually-hidden"), .for("product-query")) { l10n(.searchPlaceholder) }
            input(.type("search"), .name("q"), .id("product-query"), .value(query), .placeholder(l10n(.searchPlaceholder)),
                  .attribute("enterkeyhint", "search"))
            button(.type("submit"), .class("button button-small")) { l10n(.searchSubmit) }
        }
    }

    static func search(_ page: SearchPage, l10n: Localizer, returnTo: String) -> Node {
        fragment {
            productSearchForm(query: page.query, l10n: l10n)
            if page.cards.isEmpty {
                h1(.class("page-title search-heading")) { page.heading }
            } else {
                // Results are a list like a category's: the same grid or list choice (a fresh
                // tester found the remembered choice applied here with no way to change it).
                div(.class("page-head")) {
                    h1(.class("page-title search-heading page-head-text")) { page.heading }
                    LayoutToggle(returnTo: returnTo, l10n: l10n)
                }
            }
            filterNav(page.filterLinks, label: l10n(.allProductsCategoryFilter))
            if let controls = page.controls { ListingControls(model: controls, l10n: l10n) }
            if let didYouMean = page.didYouMean {
                p(.class("did-you-mean")) {
                    l10n(.searchDidYouMean) + " "
                    a(.href(didYouMean.href)) { didYouMean.words }
                }
            }
            if page.cards.isEmpty && !page.query.isEmpty {
                div(.class("empty-state")) { p { l10n(.searchEmptyText) } }
                div(.class("category-list")) { for category in page.suggestions { CategoryTile(model: category) } }
                if page.moreCategories {
                    p { a(.class("button button-small"), .href(SiteRoute.catalog(.categories).path)) { l10n(.seeAll) } }
                }
            }
            ProductGrid(cards: page.cards, returnTo: returnTo, headingLevel: 2, eagerCount: ProductPicture.eagerCards,
                        anchored: true)
            if let pagination = page.pagination { Pagination(model: pagination, localizer: l10n) }
        }
    }

    static func categories(_ page: CategoriesPage, l10n: Localizer) -> Node {
        fragment {
            productSearchForm(query: "", l10n: l10n)
            h1(.class("page-title")) { l10n(.categoriesTitle) }
            form(.class("search-form"), .method("get"), .action(SiteRoute.catalog(.categories).path), .role("search")) {
                label(.class("visually-hidden"), .for("category-query")) { l10n(.categorySearchLabel) }
                input(.type("search"), .name("q"), .id("category-query"), .value(page.query),
                      .placeholder(l10n(.categorySearchPlaceholder)), .autocomplete("off"), .data("filter", ".category-list"))
                button(.type("submit"), .class("button button-small")) { l10n(.searchSubmit) }
            }
            if page.categories.isEmpty && !page.query.isEmpty {
                p(.class("muted")) { l10n(.categorySearchEmpty, ["query": page.query]) }
            }
            p { a(.href(Self.allProductsHref)) { l10n(.allProductsLink) } }
            div(.class("category-list")) {
                for category in page.categories { CategoryTile(model: category) }
            }
            if page.categories.isEmpty && page.query.isEmpty {
                div(.class("empty-state")) { p { l10n(.categoryEmpty) } }
            }
        }
    }

    /// `/products`: All products, nothing chosen.
    static let allProductsHref = SiteRoute.catalog(.allProducts(category: nil, listing: Listing())).path

    /// A list's link filter (the category filter of all products and of search results).
    static func filterNav(_ links: [CategoryPage.FilterLink], label: String) -> Node {
        fragment {
            if !links.isEmpty {
                nav(.class("section"), .aria("label", label)) {
                    ul(.class("tags")) {
                        for link in links {
                            li(.class(link.isCurrent ? "tag toggle-on" : "tag")) {
                                a(.href(link.href), link.isCurrent ? .aria("current", "page") : .boolean("data-inactive", false)) {
                                    link.label
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static func category(_ page: CategoryPage, l10n: Localizer, returnTo: String) -> Node {
        fragment {
            div(.class("page-head")) {
                a(.class("back-link"), .href(SiteRoute.catalog(.categories).path), .aria("label", l10n(.tabCategories))) { Icon.back.node }
                div(.class("page-head-text")) {
                    h1(.class("page-title")) { page.name }
                    p(.class("muted")) { page.countText }
                }
                LayoutToggle(returnTo: returnTo, l10n: l10n)
            }
            filterNav(page.filterLinks, label: page.filterLabel)
            ListingControls(model: page.controls, l10n: l10n)
            if page.cards.isEmpty {
                // Filters that leave nothing say so (a fresh tester's `?min=100000` read "No
                // products here yet", the words for an empty category), with the way back.
                div(.class("empty-state")) {
                    if page.controls.isOpen {
                        p { l10n(.categoryNoMatches) }
                        a(.class("button"), .href(page.controls.clearHref)) { l10n(.filterClear) }
                    } else {
                        p { l10n(.categoryEmpty) }
                    }
                }
            }
            ProductGrid(cards: page.cards, returnTo: returnTo, headingLevel: 2, eagerCount: ProductPicture.eagerCards,
                        anchored: true)
            if let pagination = page.pagination { Pagination(model: pagination, localizer: l10n) }
        }
    }

    static func product(_ page: ProductDetailPage, related: [ProductCardModel], l10n: Localizer) -> Node {
        fragment {
            if let category = page.category {
                a(.class("product-category-link"), .href(category.path)) { Icon.back.node; span { category.name } }
            }
            // The picture and the details side by side on a desktop, in a box of their own: the
            // sticky gallery then stays inside it and never slides over "You may also like".
            div(.class("product-main")) {
                // A swipeable strip (scroll snap) and, with more than one picture, thumbnails that
                // are plain links to each picture (dots on a phone). `app.js` scrolls the strip in
                // place, marks the thumbnail in view and shows the chosen variant's picture.
                section(.class("product-gallery"), .aria("label", page.title), .data("gallery", "")) {
                    // Focusable, so a keyboard can scroll the strip (axe's `scrollable-region-focusable`).
                    div(.class("gallery-track"), .data("gallery-track", ""), .tabindex(0)) {
                        for (index, image) in page.images.enumerated() {
                            figure(.class("gallery-item"), .id(image.id)) {
                                ProductPicture(image: image.source, alt: image.alt, sizes: ProductPicture.gallerySizes,
                                               boxWidth: 800, boxHeight: 800, eager: index == 0)
                            }
                        }
                    }
                    if page.images.count > 1 {
                        nav(.class("gallery-thumbs"), .aria("label", l10n(.productImages))) {
                            for (index, image) in page.images.enumerated() {
                                a(.class("gallery-thumb"), .href("#" + image.id), .aria("label", image.label),
                                  index == 0 ? .aria("current", "true") : .boolean("data-inactive", false)) {
                                    ProductPicture(image: image.source, alt: "", sizes: "72px", boxWidth: 72, boxHeight: 72)
                                }
                            }
                        }
                    }
                }
                div(.class("product-info")) {
                    if let vendor = page.vendorText { p(.class("product-vendor")) { vendor } }
                    div(.class("title-row")) {
                        h1(.class("product-title")) { page.title }
                        Personalization.heart(productID: Product.ID(rawValue: page.productID),
                                              returnTo: SiteRoute.catalog(.product(handle: page.handle, variant: nil)).path)
                    }
                    if let rating = page.rating { RatingStars(model: rating) }
                    div(.class("product-price"), .data("price-area", "")) {
                        PriceLine(price: page.price, compareAtPrice: page.compareAtPrice, large: true,
                                  keepsWasSlot: page.anyVariantOnSale)
                        if page.anyVariantOnSale {
                            span(.class("pill pill-sale"), .hidden(page.compareAtPrice == nil)) { page.saleText }
                        }
                    }
                    // Announced when a picked variant changes it (sold out, unavailable, only 2 left).
                    p(.class(page.stockClass), .data("stock", ""), .aria("live", "polite")) { page.stockText }
                    form(.class("add-form"), .method("post"), .action(SiteRoute.cart(.add).path)) {
                        Personalization.csrfField
                        input(.type("hidden"), .name("product"), .value(page.handle))
                        if page.choices.isEmpty {
                            input(.type("hidden"), .name("variant"), .value(String(page.selectedVariantID)))
                        } else {
                            // Many variants over several options: the script also offers a picker
                            // per option, which chooses in this list (`data-option-names`).
                            let pickers = page.optionPickerNames
                            fieldset(.class("variant-picker"), .id("options"),
                                     pickers.isEmpty ? .boolean("data-option-names", false) : .data("option-names", JSONText.array(pickers)),
                                     pickers.isEmpty ? .boolean("data-unavailable", false) : .data("unavailable", l10n(.productCombinationUnavailable))) {
                                legend { page.optionsLabel }
                                for choice in page.choices {
                                    label(.class(choice.isSoldOut ? "variant-choice variant-sold-out" : "variant-choice"),
                                           .data("price", choice.price), .data("compare-at", choice.compareAtPrice ?? ""),
                                           .data("image", choice.imageID ?? ""),
                                           .data("stock", choice.stockText), .data("stock-class", choice.stockClass),
                                           .data("max", String(choice.maxQuantity)), .data("sold-out", choice.isSoldOut ? "1" : "0"),
                                           pickers.isEmpty ? .boolean("data-option-values", false)
                                                           : .data("option-values", JSONText.array(choice.optionValues))) {
                                        input(.type("radio"), .name("variant"), .value(String(choice.id)),
                                               .checked(choice.isSelected), .disabled(choice.isSoldOut))
                                        // The variant's own picture, beside its name (decorative: the name says it).
                                        if let image = choice.image {
                                            ProductPicture(image: image, alt: "", sizes: "40px", boxWidth: 40, boxHeight: 40,
                                                           className: "variant-swatch")
                                        }
                                        span(.class("variant-text")) {
                                            span(.class("variant-title")) { choice.title }
                                            span(.class("variant-meta")) { choice.isSoldOut ? choice.stockText : choice.price }
                                        }
                                    }
                                    // An open option (WooCommerce "any"): the shopper picks its value,
                                    // posted with the form (no JavaScript needed).
                                    for openOption in choice.openOptions {
                                        label(.class("variant-open-option")) {
                                            span { openOption.label }
                                            select(.name(openOption.field), .disabled(choice.isSoldOut)) {
                                                for value in openOption.values {
                                                    option(.value(value), .selected(value == openOption.selected)) { value }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        div(.class("add-row")) {
                            // Nothing to count or add when every variant is sold out. Opened at a
                            // sold-out variant while another is in stock, the box and the button stay,
                            // so that a shopper without JavaScript can pick that one and add it (a
                            // tester could not); the script shows the sold-out variant as it does when
                            // one is picked, and enables both again when an in-stock one is.
                            let buyable = !page.isSoldOut || page.choices.contains(where: { !$0.isSoldOut })
                            if buyable {
                                label(.class("quantity-field"), .data("quantity-field", "")) {
                                    span(.class("visually-hidden")) { l10n(.productQuantity) }
                                    input(.type("number"), .name("quantity"), .value(String(page.quantity)), .min(1),
                                           .max(page.maxQuantity), .inputmode("numeric"), .class("quantity-input"))
                                }
                            }
                            button(.type("submit"), .class("button button-primary button-wide"), .disabled(!buyable),
                                    .data("add-label", l10n(.addToCart)), .data("sold-out-label", l10n(.soldOutButton))) {
                                buyable ? l10n(.addToCart) : l10n(.soldOutButton)
                            }
                        }
                        if let error = page.error { p(.class("form-error"), .role("alert")) { error } }
                    }
                    if !page.descriptionHTML.isEmpty {
                        section(.class("product-description")) {
                            h2 { l10n(.productDescription) }
                            // Sanitized to a safe subset by ShopImport's HTMLSanitizer at import time.
                            div(.class("prose")) { .raw(unsafe: page.descriptionHTML) }
                        }
                    }
                    if !page.tags.isEmpty {
                        ul(.class("tags"), .aria("label", l10n(.productTags))) {
                            for tag in page.tags { li(.class("tag")) { tag } }
                        }
                    }
                    if let published = page.publishedText { p(.class("muted small")) { published } }
                }
            }
            if !related.isEmpty {
                section(.class("related"), .aria("label", l10n(.relatedTitle))) {
                    h2 { l10n(.relatedTitle) }
                    div(.class("related-strip")) {
                        for card in related {
                            ProductCard(model: card, returnTo: SiteRoute.catalog(.product(handle: page.handle, variant: nil)).path)
                        }
                    }
                }
            }
        }
    }
}
