import HTML
import ShopCore
import ShopStore

/// The sort and filter form above a product list, filled with the current choices.
struct ListingControlsModel: Sendable {
    struct Option: Sendable { var value: String; var label: String; var isSelected: Bool }

    /// Where the form goes (the list's own path, without query).
    var action: String
    /// Hidden fields to keep (the search words).
    var hidden: [(String, String)]
    var sortOptions: [Option]
    var minPrice: String
    var maxPrice: String
    /// Why a price box filters nothing ("“1e2” is not a price"), shown under the boxes.
    var priceProblem: String?
    /// The price facet (`PriceBand`s with counts); empty when the page has no facets.
    var priceBandOptions: [Option]
    var ratingOptions: [Option]
    var inStockOnly: Bool
    /// "In stock only (6)": the label with the facet's count.
    var inStockLabel: String
    var vendorOptions: [Option]
    var tagOptions: [Option]
    var isOpen: Bool
    var clearHref: String
}

extension ModelBuilder {
    func listingControls(_ listing: Listing, page: ProductPage, action: String, hidden: [(String, String)],
                         sorts: [ProductQuery.Sort], defaultSort: ProductQuery.Sort) -> ListingControlsModel {
        let l10n = localizer
        let chosenSort = listing.sort ?? defaultSort
        // The boxes show the range as the list reads it: swapped when given high to low.
        let range = listing.priceRange(currency: currency, typedIn: l10n.language)
        func sortLabel(_ sort: ProductQuery.Sort) -> String {
            switch sort {
            case .relevance: l10n(.sortRelevance)
            case .featured: l10n(.sortFeatured)
            case .priceAscending: l10n(.sortPriceAscending)
            case .priceDescending: l10n(.sortPriceDescending)
            case .newest: l10n(.sortNewest)
            case .rating: l10n(.sortRating)
            case .name: l10n(.sortName)
            }
        }
        let any = ListingControlsModel.Option(value: "", label: l10n(.filterAny), isSelected: false)
        let facets = page.facets
        // Counts from a sample of a broad search's matches (`facetsAreSampled`) are not shown.
        let counts = page.facetsAreSampled ? nil : facets
        // A chosen vendor or tag past the 50 the page lists (`ProductPage.vendors`, `.tags`: those
        // of the most products) stays offered, so sending the form again keeps the filter.
        let vendors = page.vendors + (listing.vendor.map { page.vendors.contains($0) ? [] : [$0] } ?? [])
        let chosenTag = listing.tag.map(ProductSearchRules.tagKey)
        let tags = page.tags + (listing.tag.map { tag in
            page.tags.contains { ProductSearchRules.tagKey($0) == chosenTag } ? [] : [tag]
        } ?? [])
        let vendorCounts = Dictionary(counts?.vendors.map { ($0.value, $0.count) } ?? [], uniquingKeysWith: { first, _ in first })
        let bandOptions: [ListingControlsModel.Option] = facets.map { facets in
            [.init(value: "", label: l10n(.filterAnyPrice), isSelected: listing.priceBand == nil)]
                + facets.priceBands.map { band in
                    .init(value: band.value.key, label: counted(bandLabel(band.value), counts.map { _ in band.count }),
                          isSelected: band.value.key == listing.priceBand)
                }
        } ?? []
        return ListingControlsModel(
            action: action, hidden: hidden,
            sortOptions: sorts.map { .init(value: $0.rawValue, label: sortLabel($0), isSelected: $0 == chosenSort) },
            minPrice: range.lowText ?? "", maxPrice: range.highText ?? "",
            priceProblem: range.unreadable.first.map { l10n(.filterPriceUnreadable, ["value": $0]) },
            priceBandOptions: bandOptions,
            ratingOptions: [.init(value: "", label: l10n(.filterAnyRating), isSelected: listing.minRating == nil)]
                + (1...4).reversed().map { stars in
                    .init(value: String(stars), label: l10n(.filterRatingAtLeast, ["stars": String(stars)]),
                          isSelected: listing.minRating == stars)
                },
            inStockOnly: listing.inStockOnly,
            inStockLabel: counted(l10n(.filterInStock), counts?.inStock),
            vendorOptions: [any] + vendors.map {
                .init(value: $0, label: counted($0, vendorCounts[$0]), isSelected: $0 == listing.vendor)
            },
            tagOptions: [any] + tags.map {
                .init(value: $0, label: $0, isSelected: chosenTag != nil && ProductSearchRules.tagKey($0) == chosenTag)
            },
            isOpen: listing.hasFilters,
            clearHref: SiteRoute.withQuery(action, hidden + (listing.sort.map { [("sort", $0.rawValue)] } ?? [])))
    }

    /// A facet value with its count, "Acme (5)" (the products choosing it would list), in the
    /// locale's digits; the bare label without a count.
    func counted(_ label: String, _ count: Int?) -> String {
        count.map { localizer(.filterOptionCount, ["label": label, "count": localizer.number($0)]) } ?? label
    }

    /// "Under $25", "$25 – $50", "$250 and up", in the shopper's language and money format.
    func bandLabel(_ band: PriceBand) -> String {
        let lower = localizer.money(Money(minorUnits: band.lowerMinor, currency: band.currency))
        guard let upper = band.upperMinor.map({ localizer.money(Money(minorUnits: $0, currency: band.currency)) }) else {
            return localizer(.filterPriceFrom, ["min": lower])
        }
        return band.lowerMinor == 0 ? localizer(.filterPriceUnder, ["max": upper])
            : localizer(.filterPriceBetween, ["min": lower, "max": upper])
    }
}

/// The sort select (always visible) and the filters (folded away until used). A GET form: the
/// choices become the URL. `app.js` submits it when the sort changes.
struct ListingControls: Component {
    var model: ListingControlsModel
    var l10n: Localizer

    var body: Node {
        form(.class("listing-controls"), .method("get"), .action(model.action), .data("auto-submit", "sort")) {
            for (name, value) in model.hidden { input(.type("hidden"), .name(name), .value(value)) }
            div(.class("sort-row")) {
                label(.for("sort")) { l10n(.sortLabel) }
                select(.name("sort"), .id("sort")) {
                    for option in model.sortOptions {
                        HTML.option(.value(option.value), .selected(option.isSelected)) { option.label }
                    }
                }
            }
            details(.class("filters"), .open(model.isOpen)) {
                summary { l10n(.filterTitle) }
                div(.class("filter-grid")) {
                    div(.class("field")) {
                        label(.for("min")) { l10n(.filterMinPrice) }
                        input(.type("text"), .name("min"), .id("min"), .value(model.minPrice), .inputmode("decimal"),
                              .placeholder("0"))
                    }
                    div(.class("field")) {
                        label(.for("max")) { l10n(.filterMaxPrice) }
                        input(.type("text"), .name("max"), .id("max"), .value(model.maxPrice), .inputmode("decimal"))
                    }
                    if let problem = model.priceProblem { p(.class("filter-note"), .role("alert")) { problem } }
                    if !model.priceBandOptions.isEmpty { choice("price", l10n(.filterPriceBand), model.priceBandOptions) }
                    choice("rating", l10n(.filterRating), model.ratingOptions)
                    if model.vendorOptions.count > 2 { choice("vendor", l10n(.filterVendor), model.vendorOptions) }
                    if model.tagOptions.count > 2 { choice("tag", l10n(.filterTag), model.tagOptions) }
                    label(.class("checkbox")) {
                        input(.type("checkbox"), .name("instock"), .value("1"), .checked(model.inStockOnly))
                        model.inStockLabel
                    }
                }
                div(.class("filter-actions")) {
                    button(.type("submit"), .class("button button-primary")) { l10n(.filterApply) }
                    a(.class("button"), .href(model.clearHref)) { l10n(.filterClear) }
                }
            }
            noscript { button(.type("submit"), .class("button button-small")) { l10n(.filterApply) } }
        }
    }

    private func choice(_ name: String, _ title: String, _ options: [ListingControlsModel.Option]) -> Node {
        div(.class("field")) {
            label(.for(name)) { title }
            select(.name(name), .id(name)) {
                for option in options { HTML.option(.value(option.value), .selected(option.isSelected)) { option.label } }
            }
        }
    }
}
