import Foundation
import ShopCore
import Testing

/// Amounts typed by staff in their language (issue #16: "prices typed in the staff member's
/// locale (`19,99` in Turkish and Spanish)").
@Suite("Typed amounts")
struct MoneyTypedTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var language: Language
        var currency: Currency = .usd
        /// nil: refused.
        var minorUnits: Int64?
        var testDescription: String { "“\(text)” in \(language.rawValue) → \(minorUnits.map(String.init) ?? "refused")" }
    }

    static let cases: [Case] = [
        Case(text: "19,99", language: .turkish, minorUnits: 1999),
        Case(text: "19,99", language: .spanish, minorUnits: 1999),
        Case(text: "19.99", language: .english, minorUnits: 1999),
        Case(text: "1.299,50", language: .turkish, minorUnits: 129_950),
        Case(text: "1,299.50", language: .english, minorUnits: 129_950),
        Case(text: "1.299", language: .turkish, minorUnits: 129_900),  // grouping: three digits after
        Case(text: "1,299", language: .english, minorUnits: 129_900),
        Case(text: "19.99", language: .turkish, minorUnits: 1999),  // not three digits: the decimal point
        Case(text: "19,9", language: .english, minorUnits: 1990),
        Case(text: "1.234.567", language: .spanish, minorUnits: 123_456_700),
        Case(text: " ₺19,99 ", language: .turkish, minorUnits: 1999),
        Case(text: "19,99 TRY", language: .turkish, minorUnits: 1999),
        Case(text: "12 345,00", language: .turkish, minorUnits: 1_234_500),
        Case(text: "12\u{00A0}345,00", language: .spanish, minorUnits: 1_234_500),
        Case(text: "5", language: .spanish, minorUnits: 500),
        Case(text: "0,005", language: .spanish, minorUnits: nil),  // more decimals than dollars have: refused
        Case(text: "1.999", language: .english, minorUnits: nil),  // a slip, not $2.00 (a fresh tester's)
        Case(text: "46,999", language: .turkish, minorUnits: nil),
        Case(text: "19.990", language: .english, minorUnits: 1999),  // zeros past the cents are no slip
        Case(text: "1.999", language: .turkish, minorUnits: 199_900),  // grouping in Turkish
        Case(text: "1299", language: .english, currency: .jpy, minorUnits: 1299),
        Case(text: "1299.5", language: .english, currency: .jpy, minorUnits: nil),  // yen has no decimals
        Case(text: "1299", language: .turkish, currency: .jpy, minorUnits: 1299),
        Case(text: "-3,50", language: .turkish, minorUnits: -350),
        Case(text: "", language: .turkish, minorUnits: nil),
        Case(text: "abc", language: .english, minorUnits: nil),
        Case(text: "1,2,3", language: .turkish, minorUnits: nil),
        Case(text: "19,", language: .turkish, minorUnits: nil),
        Case(text: ",5", language: .turkish, minorUnits: nil),
        Case(text: "1.2.3,4.5", language: .turkish, minorUnits: nil),
        // Found by a fresh tester: a typed price took an exponent (import files may, people don't).
        Case(text: "1e3", language: .english, minorUnits: nil),
        Case(text: "2,5E2", language: .turkish, minorUnits: nil),
        Case(text: "+5", language: .english, minorUnits: 500),
        Case(text: "5-", language: .english, minorUnits: nil),
        Case(text: "1 2x3", language: .english, minorUnits: nil),
        // Found by a fresh tester: letters and signs at either end were dropped, not refused.
        Case(text: "l00", language: .english, minorUnits: nil),
        Case(text: "10O", language: .english, minorUnits: nil),
        Case(text: "e5", language: .english, minorUnits: nil),
        Case(text: "1e", language: .english, minorUnits: nil),
        Case(text: "5 apples", language: .english, minorUnits: nil),
        Case(text: "5%", language: .english, minorUnits: nil),
        Case(text: "1\u{FF15}", language: .english, minorUnits: nil),  // a full-width 5
        Case(text: "19 99", language: .turkish, minorUnits: nil),
        Case(text: "1 234 56", language: .spanish, minorUnits: nil),
        Case(text: "\u{2212}5", language: .english, minorUnits: -500),  // the minus sign is a minus
        Case(text: "$5", language: .english, minorUnits: 500),
        Case(text: "US$ 1,299.50", language: .english, minorUnits: 129_950),
        Case(text: "usd 5", language: .english, minorUnits: 500),
        Case(text: "5 TL", language: .turkish, currency: .`try`, minorUnits: 500),
        Case(text: "₺ 1.299,50", language: .turkish, currency: .`try`, minorUnits: 129_950),
        Case(text: "1 234 567,89", language: .spanish, currency: .eur, minorUnits: 123_456_789),
        Case(text: "€5", language: .spanish, minorUnits: 500),  // a symbol is read past: the form names the currency
        Case(text: "5 €uro", language: .spanish, minorUnits: nil),
        // Found by a fresh tester: `0,001` in English was read as grouping and saved as $1.00. A
        // group of thousands never starts with 0, and grouping stands only in the whole part.
        Case(text: "0,001", language: .english, minorUnits: nil),
        Case(text: "0.001", language: .turkish, minorUnits: nil),
        Case(text: "0,010", language: .english, minorUnits: 1),
        Case(text: "01,299", language: .english, minorUnits: nil),
        Case(text: "1,2,3.50", language: .english, minorUnits: nil),
        Case(text: "0,001.50", language: .english, minorUnits: nil),
        Case(text: "12,34.50", language: .english, minorUnits: nil),
        Case(text: "1234,567.50", language: .english, minorUnits: nil),
        Case(text: "-1.299,50", language: .turkish, minorUnits: -129_950),
    ]

    @Test(arguments: cases)
    func amountsAreReadAsTheLanguageWritesThem(_ test: Case) {
        let parsed = try? Money.parse(typed: test.text, language: test.language, currency: test.currency)
        #expect(parsed?.minorUnits == test.minorUnits)
        if let parsed { #expect(parsed.currency == test.currency) }
    }

    @Test(arguments: [(Language.english, "1299.50"), (.turkish, "1299,50"), (.spanish, "1299,50")])
    func anAmountShownForEditingReadsBackExactly(language: Language, text: String) throws {
        let amount = Money(minorUnits: 129_950, currency: .usd)
        #expect(amount.typedString(language: language) == text)
        #expect(try Money.parse(typed: text, language: language, currency: .usd) == amount)
        #expect(Money(minorUnits: 1299, currency: .jpy).typedString(language: language) == "1299")
    }
}

@Suite("Campaign state")
struct CampaignStateTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: [
        (-7200.0, -3600.0, false, CampaignState.ended),
        (-3600, 3600, false, .active),
        (3600, 7200, false, .scheduled),
        (-3600, 3600, true, .paused),
        (3600, 7200, true, .paused),
    ])
    func aCampaignsStateFollowsItsWindowUnlessPaused(start: TimeInterval, end: TimeInterval, paused: Bool, state: CampaignState) {
        let campaign = Campaign(id: "c", title: "C", startsAt: Self.now + start, endsAt: Self.now + end, discount: .percentage(5),
                                isPaused: paused)
        #expect(campaign.state(at: Self.now) == state)
        #expect(campaign.isActive(at: Self.now) == (state == .active))
    }

    /// A paused campaign's code is answered as an unknown one, even inside its window.
    @Test func aPausedCodeIsNotAccepted() throws {
        var campaign = Campaign(id: "c", title: "C", startsAt: Self.now - 60, endsAt: Self.now + 60, discount: .percentage(5),
                                voucherCode: VoucherCode("PAUSED"))
        let variant = Variant(id: 1, sku: nil, optionValues: [], price: Money(minorUnits: 10_00, currency: .usd), compareAtPrice: nil,
                              inventory: .untracked)
        let item = CartQuote.Item(product: Product(id: 1, handle: "p", title: "P", variants: [variant]), variant: variant,
                                  categoryHandle: nil, quantity: 1, isSelected: true)
        let running = try CartPricing.price([item], voucherCode: VoucherCode("PAUSED"), campaign: campaign, now: Self.now, currency: .usd)
        #expect(running.discount.minorUnits > 0)
        campaign.isPaused = true
        let paused = try CartPricing.price([item], voucherCode: VoucherCode("PAUSED"), campaign: campaign, now: Self.now, currency: .usd)
        #expect(paused.discount.isZero && paused.voucher == .rejected(code: VoucherCode("PAUSED")!, .unknown))
    }
}
