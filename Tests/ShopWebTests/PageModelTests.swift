import Foundation
import ShopCore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The display decisions page models make, without HTTP or HTML (STYLE.md 14).
@Suite("Page models")
struct PageModelTests {
    private let models = ModelBuilder(localizer: Localizer())
    private let utc = TimeZone(identifier: "UTC")!

    private func variant(_ id: Int64, _ options: [String] = [], price: Int64, compareAt: Int64? = nil,
                         stock: Int? = nil) -> Variant {
        Variant(id: Variant.ID(rawValue: id), sku: "SKU-\(id)", optionValues: options, price: .usd(price),
                compareAtPrice: compareAt.map(Money.usd),
                inventory: stock.map { .tracked(quantity: $0, allowsBackorder: false) } ?? .untracked)
    }

    private func product(_ variants: [Variant], options: [String] = []) -> Product {
        Product(id: 7, handle: "lamp", title: "Desk Lamp", vendor: "Lumen", categoryID: 1,
                publishedAt: Date(timeIntervalSince1970: 1_773_500_000), optionNames: options, variants: variants)
    }

    // MARK: Money

    @Test(arguments: [(Money.usd(0), "$0.00"), (.usd(5), "$0.05"), (.usd(49_90), "$49.90"), (.usd(1_234_567_89), "$1,234,567.89"),
                      (.usd(-12_50), "-$12.50"), (Money(minorUnits: 1_200, currency: .jpy), "¥1,200")])
    func moneyIsFormattedForTheLocale(money: Money, text: String) {
        #expect(Localizer().money(money) == text)
    }

    // MARK: Product cards

    @Test func aCardOnSaleShowsTheWasPrice() {
        let card = models.card(product([variant(1, price: 89_00, compareAt: 119_00, stock: 3)]))
        #expect(card.price == "$89.00")
        #expect(card.compareAtPrice == "$119.00")
        #expect(!card.isSoldOut && !card.hasOptions)
        #expect(card.href == "/products/lamp")
    }

    @Test func aCardWithSeveralPricesShowsTheLowestAndNoWasPrice() {
        let card = models.card(product([variant(1, ["S"], price: 32_00, compareAt: 40_00), variant(2, ["M"], price: 29_00)],
                                       options: ["Size"]))
        #expect(card.price == "From $29.00")
        #expect(card.compareAtPrice == nil, "a was-price of one variant would lie about the others")
        #expect(card.hasOptions, "quick add opens the product page to choose")
    }

    @Test func aCardIsSoldOutOnlyWhenEveryVariantIs() {
        let some = models.card(product([variant(1, ["S"], price: 10_00, stock: 0), variant(2, ["M"], price: 10_00, stock: 1)],
                                       options: ["Size"]))
        let all = models.card(product([variant(1, ["S"], price: 10_00, stock: 0), variant(2, ["M"], price: 10_00, stock: 0)],
                                      options: ["Size"]))
        #expect(!some.isSoldOut)
        #expect(all.isSoldOut)
    }

    @Test(arguments: [(Int?.none, StockLevel.inStock, "In stock"), (0, .soldOut, "Sold out"), (1, .low(1), "Only 1 left"),
                      (3, .low(3), "Only 3 left"), (4, .inStock, "In stock")])
    func stockLevelsSayHowMuchIsLeft(stock: Int?, level: StockLevel, text: String) {
        let inventory: Inventory = stock.map { .tracked(quantity: $0, allowsBackorder: false) } ?? .untracked
        #expect(StockLevel(inventory) == level)
        #expect(level.text(Localizer()) == text)
    }

    // MARK: Product page

    @Test func theProductPageChoosesTheFirstVariantInStock() {
        let page = models.productPage(product([variant(1, ["Sand"], price: 29_00, stock: 0),
                                               variant(2, ["Sage"], price: 29_00, compareAt: 39_00, stock: 2)],
                                              options: ["Color"]),
                                      selected: nil, timeZone: utc)
        #expect(page.selectedVariantID == 2)
        #expect(page.saleText == "Sale" && page.compareAtPrice == "$39.00")
        #expect(page.stockText == "Only 2 left" && page.maxQuantity == 2)
        #expect(page.choices.map(\.isSoldOut) == [true, false])
        #expect(page.choices.map(\.isSelected) == [false, true])
        #expect(!page.isSoldOut)
    }

    @Test func aSoldOutChoiceShowsSoldOutAndStillAllowsAQuantityOfOne() {
        let page = models.productPage(product([variant(1, ["Sand"], price: 29_00, stock: 0),
                                               variant(2, ["Sage"], price: 29_00, stock: 2)], options: ["Color"]),
                                      selected: 1, timeZone: utc)
        #expect(page.isSoldOut && page.stockText == "Sold out")
        #expect(!page.anyVariantOnSale && page.compareAtPrice == nil)
        #expect(page.maxQuantity == 1, "the quantity field keeps a valid range")
    }

    @Test func aProductWithoutOptionsHasNoPickerAndShowsWhenItWasAdded() {
        let page = models.productPage(product([variant(1, price: 149_00, stock: 9)]), selected: nil, timeZone: utc)
        #expect(page.choices.isEmpty && page.optionsLabel.isEmpty)
        #expect(page.vendorText == "By Lumen")
        #expect(page.publishedText == "Added Mar 14, 2026")
    }

    // MARK: Cart

    /// The cart of `lines` quoted as `CartService` would: the lamps category, `selected` ticked.
    private func quote(_ lines: [(Variant, Int)], code: String? = nil, campaign: Campaign? = nil,
                       selected: Set<Int64>? = nil) throws -> CartQuote {
        let items = lines.map { variant, quantity in
            CartQuote.Item(product: product([variant]), variant: variant, categoryHandle: "lamps", quantity: quantity,
                           isSelected: selected?.contains(variant.id.rawValue) ?? true)
        }
        return try CartPricing.price(items, voucherCode: code.flatMap(VoucherCode.init), campaign: campaign,
                                     now: Date(timeIntervalSince1970: 1_780_000_000), currency: .usd)
    }

    private let welcome = Campaign(id: "welcome", title: "Welcome offer", startsAt: Date(timeIntervalSince1970: 1_770_000_000),
                                   endsAt: Date(timeIntervalSince1970: 1_790_000_000), discount: .fixedAmount(.usd(10_00)),
                                   minimumSubtotal: .usd(50_00), voucherCode: VoucherCode("WELCOME10"))

    @Test func anAppliedVoucherShowsItsCodeAndTheAmountOff() throws {
        let page = models.cartPage(try quote([(variant(1, price: 40_00), 1), (variant(2, price: 20_00), 1)],
                                             code: "welcome10", campaign: welcome),
                                   timeZone: utc)
        guard case let .applied(code, title) = page.voucher else { Issue.record("not applied: \(page.voucher)"); return }
        #expect(code == "WELCOME10" && title == "Welcome offer")
        #expect(page.discountLabel == "Discount (WELCOME10)" && page.discount == "−$10.00")
        #expect(page.subtotal == "$60.00" && page.total == "$50.00")
        #expect(page.lines.compactMap(\.discountText) == ["−$6.67", "−$3.33"], "shared by line amount, cents kept")
    }

    @Test(arguments: [
        (VoucherProblem.unknown, "We don't know the code SPRING. Check the spelling?"),
        (.notStarted(startsAt: Date(timeIntervalSince1970: 1_780_500_000)), "The code SPRING can be used from Jun 3, 2026."),
        (.expired(endedAt: Date(timeIntervalSince1970: 1_779_926_400)), "The code SPRING ended on May 27, 2026."),
        (.minimumNotMet(minimum: .usd(50_00), missing: .usd(38_00)), "Add $38.00 more to use SPRING (minimum $50.00)."),
        (.notApplicable, "The code SPRING doesn't apply to the items you've selected."),
        (.usageLimitReached(limit: 1), "You have already used the code SPRING (it can be used once per account)."),
        (.usageLimitReached(limit: 3), "You have already used the code SPRING (it can be used 3 times per account)."),
    ])
    func aRejectedVoucherSaysWhy(problem: VoucherProblem, message: String) {
        #expect(models.message(for: problem, code: "SPRING", timeZone: utc) == message)
    }

    @Test func aRejectedVoucherLeavesTheTotalAlone() throws {
        let page = models.cartPage(try quote([(variant(1, price: 12_00), 1)], code: "WELCOME10", campaign: welcome),
                                   timeZone: utc)
        guard case let .rejected(code, message) = page.voucher else { Issue.record("not rejected: \(page.voucher)"); return }
        #expect(code == "WELCOME10" && message == "Add $38.00 more to use WELCOME10 (minimum $50.00).")
        #expect(page.discountLabel == nil && page.discount == nil && page.total == "$12.00")
    }

    @Test func onlySelectedLinesCount() throws {
        let lines = [(variant(1, price: 40_00), 1), (variant(2, price: 5_00), 3)]
        let some = models.cartPage(try quote(lines, selected: [2]), timeZone: utc)
        #expect(some.itemCountText == "3 items" && some.total == "$15.00" && !some.nothingSelected)
        #expect(some.lines.map(\.isSelected) == [false, true])
        let none = models.cartPage(try quote(lines, selected: []), timeZone: utc)
        #expect(none.nothingSelected && none.total == "$0.00" && none.itemCountText == "0 items")
    }

    @Test func aCartLineShowsLowStockButNotPlentifulStock() throws {
        let quoted = try quote([(variant(1, price: 10_00, stock: 2), 1), (variant(2, price: 10_00, stock: 50), 1),
                                (variant(3, price: 10_00), 1)])
        let page = models.cartPage(quoted, errors: [CartPage.LineKey(Variant.ID(rawValue: 2), .none): "Nope."], timeZone: utc)
        #expect(page.lines.map(\.stockText) == ["Only 2 left", nil, nil])
        #expect(page.lines.map(\.error) == [nil, "Nope.", nil])
        #expect(page.lines[0].unitPriceText == "$10.00 each" && page.lines[0].maxQuantity == 2)
        #expect(page.voucher.isEmpty && page.itemCountText == "3 items")
    }

    // MARK: Home, listings and campaigns

    @Test func theHomePageShowsCampaignBannersWithTheirOffer() {
        let page = models.homePage(categories: [], featured: [], campaigns: [welcome], showingRecommendations: false,
                                   timeZone: utc)
        #expect(page.banners.map(\.offer) == ["$10.00 off"])
        #expect(page.banners.map(\.dates) == ["Feb 2, 2026 – Sep 21, 2026"])
        #expect(page.banners.map(\.href) == ["/campaigns/welcome"])
    }

    @Test func aPercentageCampaignWithACodeShowsCampaignPricesAndAFixedOneDoesNot() {
        let lamp = product([variant(1, price: 30_00)])
        var spring = welcome
        spring.discount = .percentage(15)
        #expect(models.campaignDetail(spring, products: [lamp], timeZone: utc).products.map(\.price) == ["$25.50"])
        #expect(models.campaignDetail(spring, products: [lamp], timeZone: utc).products.map(\.compareAtPrice) == ["$30.00"])
        // Its badge names the code the price needs, not "Sale" (a fresh tester: the price needs
        // the code and the campaign's minimum).
        #expect(models.campaignDetail(spring, products: [lamp], timeZone: utc).products.map(\.saleText) == ["With code"])
        #expect(models.card(lamp).saleText == "Sale")
        #expect(models.campaignDetail(welcome, products: [lamp], timeZone: utc).products.map(\.price) == ["$30.00"])
        spring.voucherCode = nil
        #expect(models.campaignDetail(spring, products: [lamp], timeZone: utc).products.map(\.price) == ["$30.00"],
                "no code, no campaign price: the cart would not charge it")
    }

    @Test(arguments: [(1, String?.none, String?("/p/2"), "Page 1 of 3"), (2, "/p/1", "/p/3", "Page 2 of 3"),
                      (3, "/p/2", nil, "Page 3 of 3")])
    func paginationLinksTheNeighbours(page: Int, previous: String?, next: String?, status: String) throws {
        let model = try #require(models.pagination(total: 50, pageSize: 24, page: page) { "/p/\($0)" })
        #expect(model.previousHref == previous && model.nextHref == next && model.status == status)
    }

    @Test func aSinglePageHasNoPagination() {
        #expect(models.pagination(total: 24, pageSize: 24, page: 1) { "/p/\($0)" } == nil)
        #expect(models.pagination(total: 0, pageSize: 24, page: 1) { "/p/\($0)" } == nil)
    }
}

extension CartPage.Voucher {
    fileprivate var isEmpty: Bool { if case .empty = self { true } else { false } }
}
