import ShopCore
import Testing

/// Postal codes of the countries whose codes have one fixed form (a tester's guest checkout took
/// `!!!`, `ABCDE` and `1234` for Turkey and `1` for the US); any other country's code is taken as
/// typed, since refusing a real one would stop an order.
@Suite("Postal codes")
struct PostalCodeTests {
    @Test(.bug("tester: any postal code was taken for Turkey, Spain and the US"), arguments: [
        ("34000", "TR", true), ("ABCDE", "TR", false), ("1234", "TR", false), ("!!!", "TR", false), ("340000", "TR", false),
        ("28012", "ES", true), ("xx", "ES", false),
        ("94103", "US", true), ("94103-1234", "US", true), ("1", "US", false), ("94103 1234", "US", false), ("<b>9</b>", "US", false),
        ("10115", "DE", true), ("75001", "FR", true), ("00184", "IT", true), ("06600", "MX", true), ("7500", "FR", false),
        ("1012 AB", "NL", true), ("1012AB", "NL", true), ("1012 A1", "NL", false),
        ("SW1A 1AA", "GB", true), ("ZZZZZZ", "GB", true), ("12", "JP", true),  // not checked: taken as typed
        ("３４０００", "TR", false),  // full-width digits are not a Turkish code
    ])
    func aCodeHasItsCountrysForm(code: String, country: String, valid: Bool) {
        #expect((PostalCodes.problem(code, country: country) == nil) == valid)
    }

    @Test func theAddressFormSaysWhatFormTheCodeHas() throws {
        let fields: [AddressField: String] = [.firstName: "Ayşe", .lastName: "Yılmaz", .phone: "+90 212 555 0100",
                                              .line1: "İstiklal Cd. 1", .city: "İstanbul", .postalCode: "ABCDE", .countryCode: "tr"]
        let errors = try #require(throws: AddressErrors.self) { try AddressRules.validate(fields, isDefault: false) }
        #expect(errors.byField == [.postalCode: [.invalidPostalCode(example: "34000")]])
        #expect(AddressProblem.invalidPostalCode(example: "34000").message(in: .turkish) == "Lütfen 34000 biçiminde bir posta kodu girin.")
        var fixed = fields
        fixed[.postalCode] = " 34430 "
        #expect(try AddressRules.validate(fixed, isDefault: false).postalCode == "34430")
    }
}
