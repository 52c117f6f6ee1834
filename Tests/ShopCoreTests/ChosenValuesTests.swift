import Foundation
import Testing
@testable import ShopCore

/// Issue #13, point 2: the shopper's pick for a WooCommerce "any" variant.
@Suite("Chosen values (open variants)")
struct ChosenValuesTests {
    /// Red in any size (S, M or L): one variant, 5 in stock.
    private static let redAnySize = Variant(
        id: 7, sku: "TEE-RED", optionValues: ["Red", ""], price: Money(minorUnits: 20_00, currency: .usd), compareAtPrice: nil,
        inventory: .tracked(quantity: 5, allowsBackorder: false), optionChoices: [[], ["S", "M", "L"]])
    private static let tee = Product(id: 1, handle: "tee", title: "Tee", optionNames: ["Color", "Size"], variants: [redAnySize])

    @Test(arguments: ["", "Size=M", "Size=M\nColor=Red", "Note=a=b", "Size="])
    func theCanonicalTextReadsBack(text: String) {
        #expect(ChosenValues(text: text).text == text)
    }

    @Test func aPartWithoutEqualsIsANameWithoutValue() {
        #expect(ChosenValues(text: "Odd").entries == [.init(name: "Odd", value: "")])
    }

    @Test func aValidPickIsCheckedAndFilledIntoTheTitle() throws {
        let chosen = try Self.tee.chosenValues(for: Self.redAnySize, picked: ["Size": " M ", "Color": "Blue", "Other": "x"])
        #expect(chosen.text == "Size=M")
        #expect(chosen.displayText == "Size: M")
        #expect(Self.redAnySize.title == "Red / S, M, L")
        #expect(Self.redAnySize.filling(chosen, optionNames: Self.tee.optionNames).title == "Red / M")
        #expect(Self.redAnySize.isOpen)
    }

    @Test(arguments: [([String: String](), CartError.valueNotChosen(option: "Size")),
                      (["Size": "XL"], .valueNotAllowed(option: "Size", value: "XL")),
                      (["Size": "m"], .valueNotAllowed(option: "Size", value: "m"))])
    func aMissingOrUnofferedPickIsRefused(picked: [String: String], error: CartError) {
        #expect(throws: error) { try Self.tee.chosenValues(for: Self.redAnySize, picked: picked) }
    }

    /// What a cart line keeps selling (`Product.stillOffers`): exactly the pick the variant would
    /// accept now — not a withdrawn value, not a pick for a variant that is no longer open, not a
    /// missing pick for one that became open.
    @Test(arguments: [
        ("Size=M", [[], ["S", "M", "L"]], true),
        ("Size=L", [[], ["S", "M"]], false),       // L withdrawn by a re-import
        ("Size=M", [[], []], false),               // the variant is no longer open
        ("", [[], []], true),                      // an ordinary variant, no pick
        ("", [[], ["S", "M"]], false),             // newly open: the line has no pick
        ("Size=m", [[], ["S", "M"]], false),       // values are compared exactly, as when adding
        ("Color=Red\nSize=M", [[], ["S", "M"]], false),  // an entry for an option that is not open
    ] as [(String, [[String]], Bool)])
    func aLineKeepsSellingOnlyWhatIsStillOffered(chosen: String, choices: [[String]], expected: Bool) {
        var variant = Self.redAnySize
        variant.optionChoices = choices
        #expect(Self.tee.stillOffers(ChosenValues(text: chosen), for: variant) == expected)
    }

    @Test func aVariantWithoutOpenOptionsTakesNoPick() throws {
        let fixed = Variant(id: 8, sku: nil, optionValues: ["Blue", "S"], price: Money(minorUnits: 1, currency: .usd),
                            compareAtPrice: nil, inventory: .untracked)
        #expect(try Self.tee.chosenValues(for: fixed, picked: ["Size": "M"]) == .none)
        #expect(!fixed.isOpen)
    }

    @Test func eachPickIsItsOwnLineAndTheLinesShareTheStock() throws {
        let m = ChosenValues(text: "Size=M"), l = ChosenValues(text: "Size=L")
        var cart = Cart()
        try cart.add(Self.redAnySize, of: 1, quantity: 2, chosen: m)
        try cart.add(Self.redAnySize, of: 1, quantity: 1, chosen: l)
        try cart.add(Self.redAnySize, of: 1, quantity: 1, chosen: m)
        #expect(cart.lines.map(\.chosen) == [m, l] && cart.lines.map(\.quantity) == [3, 1])
        #expect(throws: CartError.quantityExceedsStock(available: 5, inCart: 4)) {
            try cart.add(Self.redAnySize, of: 1, quantity: 2, chosen: l)
        }
        #expect(throws: CartError.quantityExceedsStock(available: 5, inCart: 3)) {
            try cart.setQuantity(3, of: Self.redAnySize, chosen: l)
        }
        cart.remove(7, chosen: m)
        #expect(cart.lines.map(\.chosen) == [l])
    }
}
