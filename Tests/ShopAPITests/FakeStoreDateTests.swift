import Foundation
import ShopAPI
import Testing

/// `FakeStoreDate.parse`: the ISO 8601 forms Fake Store's carts use, and nothing around them.
@Suite("Fake Store dates")
struct FakeStoreDateTests {
    @Test(arguments: [
        ("2020-02-03", 1_580_688_000.0),
        ("1970-01-01", 0),
        ("2020-02-29", 1_582_934_400),
        ("2000-02-29", 951_782_400),
        ("2020-02-03T10:00:00Z", 1_580_724_000),
        ("2020-02-03T10:00:00.000+02:00", 1_580_716_800),
        ("2020-02-03T10:00:00.5-01:30", 1_580_729_400.5),
        ("2020-12-31T23:59:59Z", 1_609_459_199),
        ("1969-12-31T23:59:59Z", -1),
    ] as [(String, Double)])
    func readsDatesAndRfc3339Times(text: String, seconds: Double) throws {
        let date = try #require(FakeStoreDate.parse(text), "\(text)")
        #expect(date.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test(arguments: [
        "", "2020", "2020-02", "2020-2-03", "20-02-03", "2020-02-03T", "2020-02-03Tgarbage", "2020-02-03 ",
        " 2020-02-03", "2020-02-03junk", "2021-02-29", "2020-06-31", "2020-13-01", "2020-00-10", "2020-01-00",
        "2020-02-03T10:30", "2020-02-03T10:30:00", "2020-02-03T25:00:00Z", "2020-02-03T10:61:00Z",
        "2020-02-03T10:00:60Z", "2020-02-03T10:00:00.Z", "2020-02-03T10:00:00+0200", "2020-02-03T10:00:00+24:00",
        "2020-02-03T10:00:00Zjunk", "２０２０-02-03",
    ])
    func refusesEverythingElse(text: String) {
        #expect(FakeStoreDate.parse(text) == nil, "\(text)")
    }

    @Test func whatItWritesItReads() throws {
        let date = Date(timeIntervalSince1970: 1_580_724_000.25)
        #expect(FakeStoreDate.format(date) == "2020-02-03T10:00:00.250Z")
        #expect(try #require(FakeStoreDate.parse(FakeStoreDate.format(date))).timeIntervalSince1970 == 1_580_724_000.25)
    }
}
