import Testing
@testable import ShopCore

/// What a typed or stored voucher code becomes: the ASCII fast path and the Unicode rules must
/// agree on every input either may see.
struct VoucherCodeTests {
    @Test(arguments: [
        ("SAVE10", "SAVE10"),                       // stored form: taken as it is
        ("save10", "SAVE10"),                       // typed in lower case
        ("Winter-20_x", "WINTER-20_X"),
        (" Welcome10 ", "WELCOME10"),               // trimmed (the Unicode path)
        ("\tCODE\n", "CODE"),
        ("çay10", "ÇAY10"),                         // non-ASCII letters are letters too
        ("ıSPARTA", "ISPARTA"),                     // dotless i upper-cases to I
        ("LİGHT15", "LIGHT15"),                     // and a Turkish keyboard's capital İ is I too
        ("lİght15", "LIGHT15"),
        ("ＬＩＧＨＴ１５", "LIGHT15"),                   // full-width forms, as a phone may type them
        (String(repeating: "A", count: 40), String(repeating: "A", count: 40)),
        ("z", "Z"),
    ])
    func normalizes(_ typed: String, _ expected: String) throws {
        #expect(try #require(VoucherCode(typed)).normalized == expected)
    }

    @Test(arguments: ["", "   ", "TEN %", "SAVE 10", "SAVE.10", "SAVE/10", String(repeating: "A", count: 41),
                      "SAVE10\u{0}", "€10"])
    func refuses(_ typed: String) {
        #expect(VoucherCode(typed) == nil)
    }
}
