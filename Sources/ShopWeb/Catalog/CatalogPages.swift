import Foundation
import ShopCore
import ShopStore

/// Home: the category strip and featured products.
struct HomePage: Sendable {
    var categories: [CategoryLinkModel]
    var featured: [ProductCardModel]
    var seeAllHref: String
    var banners: [CampaignCardModel]
    /// The featured list shows recommendations for this visitor (the toggle's other state).
    var showingRecommendations: Bool
}

/// Every category with its count.
struct CategoriesPage: Sendable {
    var categories: [CategoryLinkModel]
    /// What the visitor searched for ("" for none).
    var query: String
}

/// One category's products, a page at a time.
struct CategoryPage: Sendable {
    var name: String
    var countText: String
    var cards: [ProductCardModel]
    var pagination: PaginationModel?
    var controls: ListingControlsModel
    /// All products: the category filter's name and links ("All", each category,
    /// "Uncategorized"); empty on a category's own page.
    var filterLabel = ""
    var filterLinks: [FilterLink] = []

    /// One choice of a link filter.
    struct FilterLink: Sendable, Equatable {
        var label: String
        var href: String
        var isCurrent: Bool
    }
}

/// Product search results.
struct SearchPage: Sendable {
    var query: String
    var heading: String
    var cards: [ProductCardModel]
    var pagination: PaginationModel?
    var controls: ListingControlsModel?
    /// Categories to browse when nothing matched (the largest few).
    var suggestions: [CategoryLinkModel]
    /// Whether the shop has more categories than `suggestions` (a "See all" link follows).
    var moreCategories = false
    /// "Did you mean": the suggested words and the search page for them, when nothing matched.
    var didYouMean: (words: String, href: String)? = nil
    /// The category filter ("All", each category with its count, "Uncategorized").
    var filterLinks: [CategoryPage.FilterLink] = []
}

/// A product's page.
struct ProductDetailPage: Sendable {
    struct VariantChoice: Sendable, Equatable {
        var id: Int64
        var title: String
        var price: String
        var compareAtPrice: String?
        var stockText: String
        var stockClass: String
        var maxQuantity: Int
        var isSoldOut: Bool
        var isSelected: Bool
        /// The `id` of the gallery image showing this variant, if one does (see `variantImage`).
        var imageID: String?
        /// That image's URL: the choice shows it as a small picture, so the variant's look is
        /// visible beside its name (not only in the alt text).
        var image: ProductImage?
        /// The variant's open options (WooCommerce "any"): a list of values to pick from each.
        var openOptions: [OpenOption] = []
        /// Its option values, in the order of the product's options.
        var optionValues: [String] = []
    }

    /// Products with at least this many variants, over two or three options, are also offered
    /// a picker per option (the script builds it from the list): a fresh tester found a
    /// 30-variant product's one flat list of 30 choices hard to use on a phone.
    static let pickersPerOptionFrom = 7

    /// An option the shopper picks for an open variant: a `<select>` posted as `field`.
    struct OpenOption: Sendable, Equatable {
        /// `choice.<variant id>.<option name>` (`PickedValues`).
        var field: String
        /// The option's name, in the shopper's language.
        var label: String
        var values: [String]
        /// The value picked before (a refused add shows the form again), if any.
        var selected: String?
    }

    struct Image: Sendable, Equatable {
        /// The stored image: its URL and, for a stored one, its size (renditions).
        var source: ProductImage
        var alt: String
        /// The fragment the thumbnails link to (`image-1`, …).
        var id: String
        /// "Image 1 of 3", the thumbnail's label.
        var label: String
    }

    var productID: Int64
    var handle: String
    var title: String
    /// The product's category, linked above the page: the way back in an installed app, which
    /// has no browser back button (a fresh tester); nil without one.
    var category: (name: String, path: String)?
    var vendorText: String?
    var images: [Image]
    var price: String
    var compareAtPrice: String?
    /// "Sale", shown while the chosen variant is on sale.
    var saleText: String
    /// Whether any variant is on sale: the page then carries the "was" price and the pill,
    /// hidden while the chosen variant is not, for the script to show (a fresh tester picked a
    /// variant on sale after loading one that was not, and the struck-through price never came).
    var anyVariantOnSale: Bool
    var stockText: String
    var stockClass: String
    var rating: RatingModel?
    var publishedText: String?
    var tags: [String]
    var descriptionHTML: String
    /// Empty when the product has no options (no picker shown).
    var optionsLabel: String
    var choices: [VariantChoice]
    /// The option names, in the shopper's language, when the script offers a picker per option
    /// (``pickersPerOptionFrom``; not for open options); empty otherwise.
    var optionPickerNames: [String] = []
    var selectedVariantID: Int64
    var maxQuantity: Int
    var quantity: Int
    var isSoldOut: Bool
    var error: String?
}

extension ModelBuilder {
    func homePage(categories: [CategorySummary], featured: [Product], campaigns: [Campaign],
                  showingRecommendations: Bool, timeZone: TimeZone) -> HomePage {
        HomePage(categories: categories.map(categoryLink), featured: featured.map(card),
                 seeAllHref: SiteRoute.catalog(.categories).path,
                 banners: campaigns.map { campaignCard($0, timeZone: timeZone) },
                 showingRecommendations: showingRecommendations)
    }

    /// Previous/next links for a list of `total` products, `pageSize` a page.
    func pagination(total: Int, pageSize: Int, page: Int, href: (Int) -> String) -> PaginationModel? {
        let pages = max(1, (total + pageSize - 1) / pageSize)
        guard pages > 1 else { return nil }
        return PaginationModel(
            previousHref: page > 1 ? href(page - 1) : nil, nextHref: page < pages ? href(page + 1) : nil,
            status: localizer(.paginationStatus, ["page": localizer.number(page), "pages": localizer.number(pages)]))
    }

    func categoryPage(category: Category, page: ProductPage, listing: Listing, pageSize: Int) -> CategoryPage {
        let base = SiteRoute.category(handle: category.handle, page: 1).path
        return CategoryPage(
            name: category.name,
            countText: localizer.count(page.totalCount, .categoryProductCount),
            cards: page.products.map(card),
            pagination: pagination(total: page.totalCount, pageSize: pageSize, page: listing.page) {
                SiteRoute.catalog(.category(handle: category.handle, listing: listing.onPage($0))).path
            },
            controls: listingControls(listing, page: page, action: base, hidden: [],
                                      sorts: [.featured, .priceAscending, .priceDescending, .newest, .rating, .name],
                                      defaultSort: .featured))
    }

    /// All products (issue #13): every listed product, narrowed by `filter`, with links to each
    /// category of `categories` and to the products without one (the sort and filters are kept,
    /// the page starts over), each with its count from the category facet (which counts with
    /// the other filters, `ProductFacets`).
    func allProductsPage(filter: ProductsCategoryFilter?, categories: [CategorySummary], page: ProductPage,
                         listing: Listing, pageSize: Int) -> CategoryPage {
        func href(_ filter: ProductsCategoryFilter?, _ listing: Listing) -> String {
            SiteRoute.catalog(.allProducts(category: filter, listing: listing)).path
        }
        let fresh = listing.onPage(1)
        // The heading names the filter chosen (a fresh tester: "All products" over the
        // uncategorized ones only).
        let name = switch filter {
        case nil: localizer(.allProductsTitle)
        case .uncategorized: localizer(.allProductsUncategorized)
        case let .category(handle):
            categories.first { $0.category.handle == handle }?.category.name ?? localizer(.allProductsTitle)
        }
        return CategoryPage(
            name: name,
            countText: localizer.count(page.totalCount, .categoryProductCount),
            cards: page.products.map(card),
            pagination: pagination(total: page.totalCount, pageSize: pageSize, page: listing.page) {
                href(filter, listing.onPage($0))
            },
            controls: listingControls(listing, page: page, action: href(nil, Listing()),
                                      hidden: filter.map { [("category", $0.queryValue)] } ?? [],
                                      sorts: [.featured, .priceAscending, .priceDescending, .newest, .rating, .name],
                                      defaultSort: .featured),
            filterLabel: localizer(.allProductsCategoryFilter),
            filterLinks: categoryFilterLinks(filter, categories: categories, page: page) { href($0, fresh) })
    }

    /// The category filter of a list (all products, search results): "All", each category, and
    /// "Uncategorized", each with its count from the category facet (which counts with the other
    /// filters, `ProductFacets`) — without counts when the page has no facets or only sampled
    /// them (`facetsAreSampled`, a broad search). `hidingEmpty` leaves out the choices known to
    /// hold nothing (search results: the categories the words are not found in), but never the
    /// current one. "Uncategorized" is left out whenever it is known to hold nothing.
    func categoryFilterLinks(_ filter: ProductsCategoryFilter?, categories: [CategorySummary], page: ProductPage,
                             hidingEmpty: Bool = false,
                             href: (ProductsCategoryFilter?) -> String) -> [CategoryPage.FilterLink] {
        let facets = page.facetsAreSampled ? nil : page.facets
        let counts = Dictionary(facets?.categories.map { ($0.value.id, $0.count) } ?? [], uniquingKeysWith: { first, _ in first })
        let choices: [(String, ProductsCategoryFilter?, Int?)] = [(localizer(.allProductsAnyCategory), nil, nil)]
            + categories.map { summary in
                (summary.category.name, .category(handle: summary.category.handle),
                 facets.map { _ in counts[summary.category.id] ?? 0 })
            }
            + [(localizer(.allProductsUncategorized), .uncategorized, facets?.uncategorized)]
        return choices.compactMap { label, choice, count in
            if hidingEmpty, count == 0, choice != filter { return nil }
            // "Uncategorized (0)" on every list of a shop that files everything (a fresh tester).
            if choice == .uncategorized, count == 0, choice != filter { return nil }
            return CategoryPage.FilterLink(label: counted(label, count), href: href(choice), isCurrent: choice == filter)
        }
    }

    /// - Parameter choosing: no variant is marked chosen (the answer to an add that named none:
    ///   a tester's second press added the variant the page had chosen for them).
    func productPage(_ product: Product, category: Category? = nil, selected: Variant.ID?, quantity: Int = 1, error: String? = nil,
                     picked: [String: String] = [:], choosing: Bool = false, timeZone: TimeZone) -> ProductDetailPage {
        let l10n = localizer
        let variant = product.variants.first { $0.id == selected } ?? product.defaultVariant!
        let level = StockLevel(variant.inventory)
        // The chosen variant's picture comes first, so a link to `?variant=…` shows it without
        // JavaScript; the thumbnails and the variants' `data-image` refer to this order.
        var images = product.images
        if selected != nil, let index = ProductImage.index(showing: variant, in: images), index > 0 {
            images.insert(images.remove(at: index), at: 0)
        }
        let gallery = images.enumerated().map { index, image in
            ProductDetailPage.Image(source: image, alt: image.altText.isEmpty ? product.title : image.altText,
                                    id: "image-\(index + 1)",
                                    label: l10n(.galleryImage, ["number": l10n.number(index + 1), "count": l10n.number(images.count)]))
        }
        let choices: [ProductDetailPage.VariantChoice] = !product.hasOptions ? [] : product.variants.map { candidate in
            let candidateLevel = StockLevel(candidate.inventory)
            return ProductDetailPage.VariantChoice(
                id: candidate.id.rawValue, title: candidate.title, price: l10n.money(candidate.price),
                compareAtPrice: candidate.compareAtPrice.map(l10n.money), stockText: candidateLevel.text(l10n),
                stockClass: candidateLevel.cssClass, maxQuantity: max(Cart.quantityLimit(for: candidate), 1),
                isSoldOut: candidate.inventory.isSoldOut, isSelected: !choosing && candidate.id == variant.id,
                imageID: ProductImage.index(showing: candidate, in: images).map { gallery[$0].id },
                image: ProductImage.index(showing: candidate, in: images).map { gallery[$0].source },
                openOptions: candidate.optionChoices.enumerated().compactMap { index, values in
                    guard !values.isEmpty, index < product.optionNames.count else { return nil }
                    let name = product.optionNames[index]
                    return ProductDetailPage.OpenOption(
                        field: PickedValues.field(variant: candidate.id, option: name),
                        label: optionNames.names([name], in: l10n.language).first ?? name, values: values,
                        selected: candidate.id == variant.id ? picked[name] : nil)
                },
                optionValues: candidate.optionValues)
        }
        let localizedOptionNames = optionNames.names(product.optionNames, in: l10n.language)
        let offersPickers = product.optionNames.count >= 2 && product.variants.count >= ProductDetailPage.pickersPerOptionFrom
            && choices.allSatisfy { $0.openOptions.isEmpty && $0.optionValues.count == product.optionNames.count }
        return ProductDetailPage(
            productID: product.id.rawValue, handle: product.handle, title: product.title,
            category: category.map { ($0.name, SiteRoute.category(handle: $0.handle, page: 1).path) },
            vendorText: product.vendor.isEmpty ? nil : l10n(.productVendor, ["vendor": product.vendor]),
            images: gallery,
            price: l10n.money(variant.price), compareAtPrice: variant.compareAtPrice.map(l10n.money),
            saleText: l10n(.onSale), anyVariantOnSale: product.variants.contains { $0.compareAtPrice != nil },
            stockText: level.text(l10n), stockClass: level.cssClass, rating: rating(product.rating),
            publishedText: product.publishedAt.map { l10n(.productPublished, ["date": l10n.date($0, timeZone: timeZone)]) },
            tags: product.tags, descriptionHTML: product.descriptionHTML,
            optionsLabel: localizedOptionNames.joined(separator: " / "), choices: choices,
            optionPickerNames: offersPickers ? localizedOptionNames : [],
            selectedVariantID: variant.id.rawValue, maxQuantity: max(Cart.quantityLimit(for: variant), 1),
            quantity: quantity, isSoldOut: variant.inventory.isSoldOut, error: error)
    }
}
