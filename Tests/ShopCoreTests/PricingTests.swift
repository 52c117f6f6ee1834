import Foundation
import Testing
@testable import ShopCore

// MARK: - Fixtures

private let now = Date(timeIntervalSince1970: 1_750_000_000)
private let day: TimeInterval = 86_400
private let code = VoucherCode("save")!

private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private func jpy(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .jpy) }

private func line(_ id: Int64, _ unit: Money, quantity: Int = 1, selected: Bool = true,
                  product: String? = nil, category: String? = nil) -> CartQuote.Item {
    let variant = Variant(id: Variant.ID(id), sku: nil, optionValues: [], price: unit, compareAtPrice: nil,
                          inventory: .untracked)
    return CartQuote.Item(product: Product(id: Product.ID(id), handle: product ?? "product-\(id)", title: "Product \(id)",
                                           variants: [variant]),
                          variant: variant, categoryHandle: category, quantity: quantity, isSelected: selected)
}

private func campaign(_ discount: Discount, target: DiscountTarget = .wholeCart, minimum: Money? = nil,
                      startsAt: Date = now - day, endsAt: Date = now + day) -> Campaign {
    Campaign(id: "test", title: "Test", startsAt: startsAt, endsAt: endsAt, discount: discount, target: target,
             minimumSubtotal: minimum, voucherCode: code)
}

private func price(_ lines: [CartQuote.Item], _ campaign: Campaign?, code entered: VoucherCode? = code,
                   at instant: Date = now, currency: Currency = .usd) throws -> CartQuote {
    let totals = try CartPricing.price(lines, voucherCode: entered, campaign: campaign, now: instant, currency: currency)
    expectConsistent(totals, lines: lines)
    return totals
}

/// The invariants every priced cart keeps, whatever the rule: derived from the lines, not
/// hard-coded.
private func expectConsistent(_ totals: CartQuote, lines: [CartQuote.Item],
                              sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(totals.lines.map(\.variant.id) == lines.map(\.variant.id), sourceLocation: sourceLocation)
    var subtotal: Int64 = 0
    var discount: Int64 = 0
    for (priced, input) in zip(totals.lines, lines) {
        #expect(priced.amount.minorUnits == input.variant.price.minorUnits * Int64(input.quantity), sourceLocation: sourceLocation)
        #expect(priced.discount.minorUnits >= 0, sourceLocation: sourceLocation)
        #expect(priced.discount.minorUnits <= priced.amount.minorUnits, sourceLocation: sourceLocation)
        #expect(priced.total.minorUnits == priced.amount.minorUnits - priced.discount.minorUnits, sourceLocation: sourceLocation)
        #expect(priced.isSelected == input.isSelected, sourceLocation: sourceLocation)
        if input.isSelected {
            subtotal += priced.amount.minorUnits
            discount += priced.discount.minorUnits
        } else {
            #expect(priced.discount.isZero, "unselected lines get no discount", sourceLocation: sourceLocation)
        }
    }
    #expect(totals.subtotal.minorUnits == subtotal, sourceLocation: sourceLocation)
    #expect(totals.discount.minorUnits == discount, sourceLocation: sourceLocation)
    #expect(totals.total.minorUnits == subtotal - discount, sourceLocation: sourceLocation)
    #expect(totals.total.minorUnits >= 0, sourceLocation: sourceLocation)
    if case .applied = totals.voucher {} else {
        #expect(totals.discount.isZero, "only an applied voucher discounts", sourceLocation: sourceLocation)
    }
}

// MARK: - Percentages

struct PercentageCase: Sendable, CustomTestStringConvertible {
    var unit: Money
    var quantity: Int
    var percent: Int
    /// Expected discount on the line, worked by hand in docs/pricing.md.
    var discount: Money
    var testDescription: String { "\(percent)% of \(quantity) × \(unit) → \(discount)" }
}

@Suite("Pricing: percentage discounts")
struct PercentageDiscountTests {
    @Test(arguments: [
        // On the line amount, not per unit: 20 × 3.25 = 65.00. Per unit, 15% would be
        // 0.4875 → 0.49 × 20 = 9.80, and 7% would be 0.2275 → 0.23 × 20 = 4.60.
        PercentageCase(unit: usd(3_25), quantity: 20, percent: 15, discount: usd(9_75)),
        PercentageCase(unit: usd(3_25), quantity: 20, percent: 7, discount: usd(4_55)),
        // Half-up at exactly .5, once per line.
        PercentageCase(unit: usd(5), quantity: 1, percent: 10, discount: usd(1)),     // 0.5 → 1
        PercentageCase(unit: usd(4), quantity: 1, percent: 10, discount: usd(0)),     // 0.4 → 0
        PercentageCase(unit: usd(15), quantity: 1, percent: 10, discount: usd(2)),    // 1.5 → 2
        PercentageCase(unit: usd(14), quantity: 1, percent: 10, discount: usd(1)),    // 1.4 → 1
        PercentageCase(unit: usd(99), quantity: 1, percent: 33, discount: usd(33)),   // 32.67 → 33
        // 100% takes the line to zero, not below.
        PercentageCase(unit: usd(12_34), quantity: 3, percent: 100, discount: usd(37_02)),
        // JPY has no minor digits: ¥1,250 × 3 = ¥3,750; 15% = 562.5 → ¥563.
        PercentageCase(unit: jpy(1_250), quantity: 3, percent: 15, discount: jpy(563)),
        PercentageCase(unit: jpy(1_249), quantity: 1, percent: 10, discount: jpy(125)), // 124.9 → 125
    ])
    func percentageIsTakenOffTheLineAmountAndRoundedHalfUpOnce(_ example: PercentageCase) throws {
        let lines = [line(1, example.unit, quantity: example.quantity)]
        let totals = try price(lines, campaign(.percentage(example.percent)), currency: example.unit.currency)
        #expect(totals.voucher == .applied(campaign(.percentage(example.percent))))
        #expect(totals.lines[0].discount == example.discount)
        #expect(totals.discount == example.discount)
    }

    @Test func eachLineIsRoundedOnItsOwn() throws {
        // 10% of 0.05 on two lines: 0.01 each (0.005 + 0.005 would round to 0.01 once on the sum).
        let lines = [line(1, usd(5)), line(2, usd(5))]
        let totals = try price(lines, campaign(.percentage(10)))
        #expect(totals.lines.map(\.discount) == [usd(1), usd(1)])
        #expect(totals.total == usd(8))
    }

    @Test func percentageAppliesToTheSalePriceTheShopperPays() throws {
        let variant = Variant(id: 7, sku: nil, optionValues: [], price: usd(80_00), compareAtPrice: usd(100_00),
                              inventory: .untracked)
        let product = Product(id: 3, handle: "lamp", title: "Lamp", variants: [variant])
        let lines = [CartQuote.Item(product: product, variant: variant, categoryHandle: nil, quantity: 2)]
        let totals = try price(lines, campaign(.percentage(25)))
        #expect(totals.subtotal == usd(160_00))
        #expect(totals.discount == usd(40_00))  // 25% of 160.00, not of the 200.00 list price
        #expect(totals.total == usd(120_00))
    }
}

// MARK: - Fixed amounts and allocation

struct AllocationCase: Sendable, CustomTestStringConvertible {
    var amounts: [Int64]
    var fixed: Int64
    var shares: [Int64]
    var testDescription: String { "\(fixed) over \(amounts) → \(shares)" }
}

@Suite("Pricing: fixed discounts and allocation")
struct FixedDiscountTests {
    @Test(arguments: [
        // 22.00 over 10.00/13.00/10.00: 666.67, 866.67, 666.67 — equal remainders, first two get a cent.
        AllocationCase(amounts: [10_00, 13_00, 10_00], fixed: 22_00, shares: [6_67, 8_67, 6_66]),
        // Three equal lines, equal remainders: ties go to the earlier lines.
        AllocationCase(amounts: [1_00, 1_00, 1_00], fixed: 1_00, shares: [34, 33, 33]),
        AllocationCase(amounts: [1_00, 1_00, 1_00], fixed: 2_00, shares: [67, 67, 66]),
        // Largest remainder wins, not line order: 100.1 / 200.2 / 700.7.
        AllocationCase(amounts: [10_00, 20_00, 70_00], fixed: 10_01, shares: [1_00, 2_00, 7_01]),
        AllocationCase(amounts: [50_00], fixed: 20_00, shares: [20_00]),
        // Exactly the cart: every line to zero.
        AllocationCase(amounts: [3_00, 7_00], fixed: 10_00, shares: [3_00, 7_00]),
    ])
    func fixedAmountIsAllocatedByLargestRemainder(_ example: AllocationCase) throws {
        let lines = example.amounts.enumerated().map { line(Int64($0.offset + 1), usd($0.element)) }
        let totals = try price(lines, campaign(.fixedAmount(usd(example.fixed))))
        #expect(totals.lines.map(\.discount.minorUnits) == example.shares)
        #expect(totals.discount == usd(example.fixed))
        #expect(totals.total.minorUnits == example.amounts.reduce(0, +) - example.fixed)
    }

    @Test func twentyTwoOffThirtyThreeLeavesEleven() throws {
        let lines = [line(1, usd(10_00)), line(2, usd(13_00)), line(3, usd(10_00))]
        let totals = try price(lines, campaign(.fixedAmount(usd(22_00))))
        #expect(totals.subtotal == usd(33_00))
        #expect(totals.discount == usd(22_00))
        #expect(totals.total == usd(11_00))
    }

    @Test(arguments: [Int64(15_01), 50_00, 1_000_000_00])
    func fixedVoucherLargerThanTheCartTakesItToZeroNotBelow(fixed: Int64) throws {
        let lines = [line(1, usd(10_00)), line(2, usd(5_00)), line(3, usd(99_00), selected: false)]
        let totals = try price(lines, campaign(.fixedAmount(usd(fixed))))
        #expect(totals.discount == usd(15_00))
        #expect(totals.total == usd(0))
        #expect(totals.lines.map(\.total) == [usd(0), usd(0), usd(99_00)])
    }

    @Test func fixedAmountInJapaneseYenIsAllocatedInWholeYen() throws {
        let lines = [line(1, jpy(700)), line(2, jpy(700)), line(3, jpy(700))]
        let totals = try price(lines, campaign(.fixedAmount(jpy(1_000))), currency: .jpy)
        #expect(totals.lines.map(\.discount) == [jpy(334), jpy(333), jpy(333)])
        #expect(totals.total == jpy(1_100))
    }

    @Test func allocationOfManyOddLinesAddsUpExactly() {
        // Amounts 1…37 cents against every total 0…sum: shares always add up and stay within lines.
        let weights = (1...37).map { usd(Int64($0 * 7 % 37 + 1)) }
        let sum = weights.reduce(0) { $0 + $1.minorUnits }
        for total in 0...sum {
            let shares = CartPricing.allocate(usd(total), proportionalTo: weights)
            #expect(shares.reduce(0) { $0 + $1.minorUnits } == total)
            #expect(zip(shares, weights).allSatisfy { $0.minorUnits >= 0 && $0.minorUnits <= $1.minorUnits })
        }
    }

    @Test func allocationDoesNotOverflowOnLargeAmounts() {
        let big = Int64.max / 4
        let shares = CartPricing.allocate(usd(big), proportionalTo: [usd(big), usd(big), usd(big)])
        #expect(shares.reduce(0) { $0 + $1.minorUnits } == big)
    }
}

// MARK: - Vouchers: when they apply

struct WindowCase: Sendable, CustomTestStringConvertible {
    var offset: TimeInterval  // from now, the instant priced
    var expected: VoucherProblem?
    var testDescription: String { "priced at start + \(offset) s → \(expected.map { "\($0)" } ?? "applied")" }
}

@Suite("Pricing: voucher decisions")
struct VoucherDecisionTests {
    // The campaign runs [now, now + 1 day).
    @Test(arguments: [
        WindowCase(offset: -1, expected: .notStarted(startsAt: now)),
        WindowCase(offset: 0, expected: nil),
        WindowCase(offset: day - 1, expected: nil),
        WindowCase(offset: day, expected: .expired(endedAt: now + day)),
        WindowCase(offset: 30 * day, expected: .expired(endedAt: now + day)),
    ])
    func campaignIsActiveFromItsStartUntilJustBeforeItsEnd(_ example: WindowCase) throws {
        let offer = campaign(.percentage(10), startsAt: now, endsAt: now + day)
        let totals = try price([line(1, usd(10_00))], offer, at: now + example.offset)
        if let problem = example.expected {
            #expect(totals.voucher == .rejected(code: code, problem))
            #expect(totals.total == usd(10_00))
        } else {
            #expect(totals.voucher == .applied(offer))
            #expect(totals.total == usd(9_00))
        }
    }

    @Test func codeWithoutACampaignIsUnknown() throws {
        let totals = try price([line(1, usd(10_00))], nil)
        #expect(totals.voucher == .rejected(code: code, .unknown))
        #expect(totals.total == usd(10_00))
    }

    @Test func campaignWithADifferentCodeIsTreatedAsUnknown() throws {
        let other = VoucherCode("OTHER")!
        let totals = try price([line(1, usd(10_00))], campaign(.percentage(50)), code: other)
        #expect(totals.voucher == .rejected(code: other, .unknown))
    }

    @Test func noCodeMeansNoVoucherAndNoDiscount() throws {
        let totals = try price([line(1, usd(10_00))], campaign(.percentage(50)), code: nil)
        #expect(totals.voucher == VoucherStatus.none)
        #expect(totals.total == usd(10_00))
    }

    @Test func codesAreComparedCaseInsensitively() throws {
        let typed = VoucherCode("  Save ")!
        let totals = try price([line(1, usd(10_00))], campaign(.percentage(50)), code: typed)
        #expect(totals.total == usd(5_00))
    }

    @Test func minimumSpendVoucherIsDroppedWhenALineIsRemovedAndRestoredWhenAddedBack() throws {
        let offer = campaign(.percentage(10), minimum: usd(50_00))
        let chair = line(1, usd(30_00))
        let table = line(2, usd(25_00))

        let full = try price([chair, table], offer)
        #expect(full.voucher == .applied(offer))
        #expect(full.discount == usd(5_50))

        let removed = try price([chair], offer)
        #expect(removed.voucher == .rejected(code: code, .minimumNotMet(minimum: usd(50_00), missing: usd(20_00))))
        #expect(removed.discount == usd(0))
        #expect(removed.total == usd(30_00))

        let restored = try price([chair, table], offer)
        #expect(restored == full)
    }

    @Test(arguments: [Int64(49_99), 50_00, 50_01])
    func minimumIsComparedWithTheSelectedSubtotalBeforeDiscount(subtotal: Int64) throws {
        // 100% off: after discount the subtotal would be 0, but the minimum looks at it before.
        let offer = campaign(.percentage(100), minimum: usd(50_00))
        let totals = try price([line(1, usd(subtotal)), line(2, usd(100_00), selected: false)], offer)
        if subtotal >= 50_00 {
            #expect(totals.voucher == .applied(offer))
            #expect(totals.total == usd(0))
        } else {
            #expect(totals.voucher == .rejected(code: code, .minimumNotMet(minimum: usd(50_00), missing: usd(50_00 - subtotal))))
        }
    }

    @Test func aVoucherNoSelectedLineQualifiesForIsNotApplicable() throws {
        let offer = campaign(.percentage(20), target: .category(handle: "chairs"))
        let lines = [line(1, usd(10_00), category: "tables"), line(2, usd(40_00), selected: false, category: "chairs")]
        let totals = try price(lines, offer)
        #expect(totals.voucher == .rejected(code: code, .notApplicable))
        #expect(totals.discount == usd(0))
    }

    @Test func notApplicableIsReportedBeforeAnUnmetMinimum() throws {
        // Spending more on other things would not help, so the shopper is told it does not apply.
        let offer = campaign(.percentage(20), target: .products(handles: ["lamp"]), minimum: usd(100_00))
        let totals = try price([line(1, usd(10_00), product: "rug")], offer)
        #expect(totals.voucher == .rejected(code: code, .notApplicable))
    }

    @Test func voucherMessagesNameTheProblem() {
        #expect(VoucherProblem.minimumNotMet(minimum: usd(50_00), missing: usd(5_00)).errorDescription
            == "Add 5.00 USD more to use this code (minimum 50.00 USD).")
        #expect(VoucherProblem.unknown.errorDescription == "This code is not valid.")
    }
}

// MARK: - Selection and targets

struct SelectionCase: Sendable, CustomTestStringConvertible {
    var selected: [Bool]
    var subtotal: Int64
    var discount: Int64
    var voucher: VoucherProblem?
    var testDescription: String { "selected \(selected)" }
}

@Suite("Pricing: selection and targets")
struct SelectionAndTargetTests {
    // Lines 10.00, 20.00, 30.00 with 10% off the whole cart.
    @Test(arguments: [
        SelectionCase(selected: [true, true, true], subtotal: 60_00, discount: 6_00, voucher: nil),
        SelectionCase(selected: [true, false, true], subtotal: 40_00, discount: 4_00, voucher: nil),
        SelectionCase(selected: [false, true, false], subtotal: 20_00, discount: 2_00, voucher: nil),
        SelectionCase(selected: [false, false, false], subtotal: 0, discount: 0, voucher: .notApplicable),
    ])
    func onlySelectedLinesCount(_ example: SelectionCase) throws {
        let lines = example.selected.enumerated().map { line(Int64($0.offset + 1), usd(Int64($0.offset + 1) * 10_00), selected: $0.element) }
        let totals = try price(lines, campaign(.percentage(10)))
        #expect(totals.subtotal == usd(example.subtotal))
        #expect(totals.discount == usd(example.discount))
        #expect(totals.total == usd(example.subtotal - example.discount))
        if let problem = example.voucher { #expect(totals.voucher == .rejected(code: code, problem)) }
        // Unselected lines still show their amount.
        #expect(totals.lines.map(\.amount) == [usd(10_00), usd(20_00), usd(30_00)])
    }

    @Test func selectingALineAgainBringsBackItsShareOfAFixedDiscount() throws {
        let offer = campaign(.fixedAmount(usd(9_00)))
        var lines = [line(1, usd(10_00)), line(2, usd(20_00))]
        let both = try price(lines, offer)
        #expect(both.lines.map(\.discount) == [usd(3_00), usd(6_00)])
        lines[1].isSelected = false
        let one = try price(lines, offer)
        #expect(one.lines.map(\.discount) == [usd(9_00), usd(0)])
        #expect(one.total == usd(1_00))
        lines[1].isSelected = true
        #expect(try price(lines, offer) == both)
    }

    @Test func categoryCampaignDiscountsOnlyThatCategory() throws {
        let lines = [line(1, usd(50_00), category: "chairs"), line(2, usd(80_00), category: "tables"),
                     line(3, usd(25_00), quantity: 2, category: "chairs"), line(4, usd(5_00), category: nil)]
        let totals = try price(lines, campaign(.percentage(20), target: .category(handle: "chairs")))
        #expect(totals.lines.map(\.discount) == [usd(10_00), usd(0), usd(10_00), usd(0)])
        #expect(totals.total == usd(165_00))
    }

    @Test func productCampaignAllocatesAFixedAmountOverTheListedProductsOnly() throws {
        let lines = [line(1, usd(10_00), product: "mug"), line(2, usd(40_00), product: "rug"),
                     line(3, usd(20_00), product: "lamp")]
        let totals = try price(lines, campaign(.fixedAmount(usd(10_00)), target: .products(handles: ["mug", "lamp"])))
        // 10.00 over mug 10.00 and lamp 20.00: 3.33…, 6.66… → the larger remainder (lamp, .67) gets the cent.
        #expect(totals.lines.map(\.discount) == [usd(3_33), usd(0), usd(6_67)])
        #expect(totals.discount == usd(10_00))
    }

    @Test func campaignPriceOfOneProductUsesTheSameRounding() throws {
        #expect(try Discount.percentage(10).amountOff(usd(5)) == usd(1))
        #expect(try Discount.percentage(15).amountOff(usd(3_25)) == usd(49))
        #expect(try Discount.fixedAmount(usd(20_00)).amountOff(usd(12_00)) == usd(12_00))
    }
}

// MARK: - Errors

@Suite("Pricing: errors")
struct PricingErrorTests {
    @Test func pricesInAnotherCurrencyAreRefused() {
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) {
            try CartPricing.price([line(1, Money(minorUnits: 1_00, currency: .eur))], voucherCode: nil,
                                  campaign: nil, now: now, currency: .usd)
        }
    }

    @Test func aFixedDiscountInAnotherCurrencyIsRefused() {
        let offer = campaign(.fixedAmount(Money(minorUnits: 5_00, currency: .eur)))
        #expect(throws: MoneyError.currencyMismatch(.usd, .eur)) {
            try CartPricing.price([line(1, usd(10_00))], voucherCode: code, campaign: offer, now: now, currency: .usd)
        }
    }

    @Test func overflowingLineAmountsThrowInsteadOfWrapping() {
        #expect(throws: MoneyError.overflow) {
            try CartPricing.price([line(1, usd(Int64.max / 2), quantity: 3)], voucherCode: nil,
                                  campaign: nil, now: now, currency: .usd)
        }
        #expect(throws: MoneyError.overflow) {
            try CartPricing.price([line(1, usd(Int64.max / 2))], voucherCode: code,
                                  campaign: campaign(.percentage(10)), now: now, currency: .usd)
        }
    }
}

// MARK: - Campaign validation

struct ValidationCase: Sendable, CustomTestStringConvertible {
    var name: String
    var campaign: Campaign
    var error: CampaignValidationError
    var testDescription: String { name }
}

@Suite("Campaign validation")
struct CampaignValidationTests {
    @Test(arguments: [Discount.percentage(1), .percentage(100), .fixedAmount(usd(1)), .fixedAmount(usd(20_00))])
    func validDiscountsPass(_ discount: Discount) throws {
        #expect(try discount.validated(currency: .usd) == discount)
        try campaign(discount, target: .products(handles: ["mug"]), minimum: usd(1)).validate(currency: .usd)
    }

    @Test(arguments: [
        (Discount.percentage(0), CampaignValidationError.percentageOutOfRange(0)),
        (.percentage(150), .percentageOutOfRange(150)),
        (.percentage(101), .percentageOutOfRange(101)),
        (.percentage(-5), .percentageOutOfRange(-5)),
        (.fixedAmount(usd(0)), .fixedAmountNotPositive(usd(0))),
        (.fixedAmount(usd(-1_00)), .fixedAmountNotPositive(usd(-1_00))),
        (.fixedAmount(Money(minorUnits: 5_00, currency: .eur)), .currencyMismatch(field: .discount, expected: .usd, found: .eur)),
    ])
    func invalidDiscountsAreRejected(discount: Discount, error: CampaignValidationError) {
        #expect(throws: error) { try discount.validated(currency: .usd) }
        #expect(throws: error) { try campaign(discount).validate(currency: .usd) }
        #expect(error.field == .discount)
    }

    @Test(arguments: [
        ValidationCase(name: "starts at its end", campaign: campaign(.percentage(10), startsAt: now, endsAt: now),
                       error: .endsNotAfterStart(startsAt: now, endsAt: now)),
        ValidationCase(name: "ends before it starts", campaign: campaign(.percentage(10), startsAt: now, endsAt: now - 1),
                       error: .endsNotAfterStart(startsAt: now, endsAt: now - 1)),
        ValidationCase(name: "minimum in euros", campaign: campaign(.percentage(10), minimum: Money(minorUnits: 1, currency: .eur)),
                       error: .currencyMismatch(field: .minimumSubtotal, expected: .usd, found: .eur)),
        ValidationCase(name: "negative minimum", campaign: campaign(.percentage(10), minimum: usd(-1)),
                       error: .minimumSubtotalNotPositive(usd(-1))),
        ValidationCase(name: "no products", campaign: campaign(.percentage(10), target: .products(handles: [])),
                       error: .emptyTarget),
        ValidationCase(name: "empty category", campaign: campaign(.percentage(10), target: .category(handle: "")),
                       error: .emptyTarget),
        ValidationCase(name: "usage limit 0", campaign: {
            var offer = campaign(.percentage(10))
            offer.usageLimitPerAccount = 0
            return offer
        }(), error: .usageLimitNotPositive(0)),
        ValidationCase(name: "zero minimum", campaign: campaign(.percentage(10), minimum: usd(0)),
                       error: .minimumSubtotalNotPositive(usd(0))),
        ValidationCase(name: "a product twice", campaign: campaign(.percentage(10), target: .products(handles: ["a", "b", "a"])),
                       error: .repeatedProduct("a")),
        ValidationCase(name: "upper-case id", campaign: {
            var offer = campaign(.percentage(10))
            offer.id = "Winter"
            return offer
        }(), error: .invalidID("Winter")),
        ValidationCase(name: "image on another host without scheme", campaign: {
            var offer = campaign(.percentage(10))
            offer.imageURL = "//evil.example/x.png"
            return offer
        }(), error: .imageNotSitePathOrWebURL("//evil.example/x.png")),
        ValidationCase(name: "image path climbing out of the site", campaign: {
            var offer = campaign(.percentage(10))
            offer.imageURL = "/static/../../etc/passwd"
            return offer
        }(), error: .imageNotSitePathOrWebURL("/static/../../etc/passwd")),
        ValidationCase(name: "image path climbing out, encoded", campaign: {
            var offer = campaign(.percentage(10))
            offer.imageURL = "/static/%2E%2E/secret.png"
            return offer
        }(), error: .imageNotSitePathOrWebURL("/static/%2E%2E/secret.png")),
        ValidationCase(name: "title too long", campaign: {
            var offer = campaign(.percentage(10))
            offer.title = LocalizedText(String(repeating: "a", count: 201))
            return offer
        }(), error: .textTooLong(.title, maximum: 200)),
        ValidationCase(name: "a translation of the description too long", campaign: {
            var offer = campaign(.percentage(10))
            offer.description = LocalizedText("Short", translations: [.turkish: String(repeating: "ş", count: 2_001)])
            return offer
        }(), error: .textTooLong(.description, maximum: 2_000)),
    ])
    func invalidCampaignsAreRejected(_ example: ValidationCase) {
        #expect(throws: example.error) { try example.campaign.validate(currency: .usd) }
        #expect(example.campaign.problems(currency: .usd) == [example.error], "each case breaks one rule")
    }

    /// `problems` lists every rule broken, in `validate`'s order; `validate` throws the first.
    @Test func everyBrokenRuleIsListed() {
        var offer = campaign(.percentage(150), target: .products(handles: ["a", "a"]), minimum: usd(0))
        offer.id = "Bad Id"
        offer.imageURL = "javascript:alert(1)"
        offer.usageLimitPerAccount = 0
        #expect(offer.problems(currency: .usd) == [
            .invalidID("Bad Id"), .imageNotSitePathOrWebURL("javascript:alert(1)"), .percentageOutOfRange(150),
            .minimumSubtotalNotPositive(usd(0)), .usageLimitNotPositive(0), .repeatedProduct("a"),
        ])
        #expect(throws: CampaignValidationError.invalidID("Bad Id")) { try offer.validate(currency: .usd) }
        #expect(campaign(.percentage(10)).problems(currency: .usd).isEmpty)
    }

    @Test func messagesNameTheField() {
        #expect(CampaignValidationError.percentageOutOfRange(150).errorDescription
            == "discount: a percentage must be more than 0 and at most 100, not 150")
        #expect(CampaignValidationError.endsNotAfterStart(startsAt: now, endsAt: now).errorDescription?.hasPrefix("endsAt: ") == true)
    }
}

@Suite("Pricing: usage limit per account")
struct PricingUsageLimitTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private var campaign: Campaign {
        Campaign(id: "once", title: "Once", startsAt: now - 60, endsAt: now + 60, discount: .percentage(10),
                 voucherCode: VoucherCode("ONCE"), usageLimitPerAccount: 1)
    }
    private var lines: [CartQuote.Item] {
        let variant = Variant(id: 1, sku: nil, optionValues: [], price: Money(minorUnits: 10_00, currency: .usd),
                              compareAtPrice: nil, inventory: .untracked)
        return [CartQuote.Item(product: Product(id: 1, handle: "p", title: "P", variants: [variant]), variant: variant,
                               quantity: 1)]
    }

    @Test(arguments: [(Int?.none, VoucherProblem.signInRequired), (1, .usageLimitReached(limit: 1))])
    func aLimitedCodeNeedsAnAccountWithUsesLeft(uses: Int?, problem: VoucherProblem) throws {
        let totals = try CartPricing.price(lines, voucherCode: VoucherCode("once"), campaign: campaign, now: now,
                                           currency: .usd, accountUses: uses)
        #expect(totals.voucher == .rejected(code: VoucherCode("ONCE")!, problem))
        #expect(totals.discount.isZero)
    }

    @Test func anAccountWithUsesLeftGetsTheDiscount() throws {
        let totals = try CartPricing.price(lines, voucherCode: VoucherCode("once"), campaign: campaign, now: now,
                                           currency: .usd, accountUses: 0)
        #expect(totals.discount == Money(minorUnits: 1_00, currency: .usd))
    }
}
