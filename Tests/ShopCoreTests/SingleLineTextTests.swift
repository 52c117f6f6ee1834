import ShopCore
import Testing

/// Text that must stay on one line (names, address fields): `TextRules.singleLine`.
@Suite("Single-line text")
struct SingleLineTextTests {
    @Test(arguments: [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Eve\r\nBcc: evil@example.com", "Eve Bcc: evil@example.com"),
        ("a\u{2028}b\u{0}c", "a b c"),
        // A fresh tester: "1 <RLO>evil" showed as "1 live" on the order page and in the email.
        ("1 \u{202E}evil", "1 evil"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}x\u{2066}\u{2067}\u{2068}\u{2069}", "x"),
        ("\u{202E} ", ""),
        // Marks and joiners stay: Arabic with a mark, Persian with a zero-width non-joiner, an emoji family.
        ("شارع\u{200F} 5", "شارع\u{200F} 5"),
        ("می\u{200C}خواهم", "می\u{200C}خواهم"),
        ("👩\u{200D}👩\u{200D}👧", "👩\u{200D}👩\u{200D}👧"),
    ])
    func aLineIsCleaned(_ typed: String, _ kept: String) {
        #expect(TextRules.singleLine(typed) == kept)
    }

    @Test func anAddressLineLosesItsDirectionOverride() throws {
        let form: [AddressField: String] = [.firstName: "\u{202E}Eve", .lastName: "L", .phone: "5550100",
                                            .line1: "1 \u{202E}evil", .city: "C", .postalCode: "12345", .countryCode: "US"]
        let address = try AddressRules.validate(form, isDefault: false)
        #expect(address.line1 == "1 evil" && address.firstName == "Eve")
    }
}
