import Foundation
import ShopCore
import ShopImport
import Testing

/// The campaign file (`docs/CAMPAIGNS.md`): what a valid file becomes, and how every kind of
/// mistake rejects the whole file with a message naming the campaign and the field.
@Suite("Campaign file")
struct CampaignFileTests {
    // MARK: helpers

    /// The instant of a wall-clock time in `zone`, computed by Foundation's calendar (an oracle
    /// independent of the reader's own arithmetic).
    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
                        in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute,
                                                  second: second))!
    }

    static let utc = TimeZone(identifier: "UTC")!
    static let istanbul = TimeZone(identifier: "Europe/Istanbul")!

    /// A valid campaign as `key: JSON text` pairs, in file order.
    static let baseCampaign: [(String, String)] = [
        ("id", #""winter-sale""#),
        ("title", #""Winter sale""#),
        ("description", #""20% off.""#),
        ("image", #""/static/images/campaigns/winter.svg""#),
        ("startsAt", #""2026-12-01T00:00:00+03:00""#),
        ("endsAt", #""2027-01-01T00:00:00+03:00""#),
        ("rule", #"{"type": "percentage", "percent": 20}"#),
        ("appliesTo", #"{"type": "cart"}"#),
        ("minimumSubtotal", #""50.00""#),
        ("voucherCode", #""WINTER20""#),
        ("usageLimitPerAccount", "1"),
    ]

    /// The base campaign with `edits` applied: a value replaces (or adds) a field, nil removes it.
    static func campaignJSON(_ edits: [String: String?] = [:]) -> String {
        var pairs = baseCampaign.filter { edits[$0.0] == nil }
        for (key, value) in edits.sorted(by: { $0.key < $1.key }) {
            if let value { pairs.append((key, value)) }
        }
        return "{" + pairs.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A file with these campaign objects (JSON texts), one per line.
    static func file(_ campaigns: [String]) -> String {
        "{\"campaigns\": [\n" + campaigns.joined(separator: ",\n") + "\n]}"
    }

    static func read(_ text: String, currency: Currency = .usd) throws(CampaignFileError) -> [Campaign] {
        try CampaignFile.read(Data(text.utf8), fileName: "campaigns.json", currency: currency)
    }

    /// The error reading `text` throws; records an issue when it reads fine.
    static func error(_ text: String, currency: Currency = .usd) -> CampaignFileError? {
        do {
            let campaigns = try read(text, currency: currency)
            Issue.record("expected the file to be rejected, got \(campaigns.count) campaigns")
            return nil
        } catch {
            return error
        }
    }

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/campaigns"),
                               "missing fixture campaigns/\(name)")
        return try Data(contentsOf: url)
    }

    // MARK: valid files

    @Test func validFileBecomesCampaignsInFileOrder() throws {
        let campaigns = try CampaignFile.read(try Self.fixture("valid.json"), fileName: "valid.json", currency: .usd)
        #expect(campaigns.map(\.id) == ["winter-sale", "lamp-week", "chair-deal"])

        let winter = campaigns[0]
        #expect(winter.title == "Winter sale")
        #expect(winter.description == "20% off everything over $50.")
        #expect(winter.imageURL == "/static/images/campaigns/winter.svg")
        #expect(winter.startsAt == Self.instant(2026, 11, 30, 21, in: Self.utc))
        #expect(winter.endsAt == Self.instant(2026, 12, 31, 21, in: Self.utc))
        #expect(winter.discount == .percentage(20))
        #expect(winter.target == .wholeCart)
        #expect(winter.minimumSubtotal == Money(minorUnits: 50_00, currency: .usd))
        #expect(winter.voucherCode == VoucherCode("WINTER20"))
        #expect(winter.voucherCode?.normalized == "WINTER20")  // written "winter20"
        #expect(winter.usageLimitPerAccount == 1)

        let lamps = campaigns[1]
        #expect(lamps.target == .category(handle: "lamps"))  // "Lamps" made a handle
        #expect(lamps.description == "")
        #expect(lamps.imageURL == nil)
        #expect(lamps.minimumSubtotal == nil)
        #expect(lamps.voucherCode == nil)
        #expect(lamps.usageLimitPerAccount == nil)

        let chairs = campaigns[2]
        #expect(chairs.discount == .fixedAmount(Money(minorUnits: 10_00, currency: .usd)))
        #expect(chairs.target == .products(handles: ["oak-dining-chair", "bentwood-cafe-chair"]))
        #expect(chairs.imageURL == "https://cdn.example.com/chairs.png")
        #expect(chairs.voucherCode == nil)  // null
        #expect(chairs.startsAt == Self.instant(2026, 11, 1, 5, in: Self.utc))
    }

    @Test func amountsAreReadExactlyInTheShopCurrency() throws {
        let fixed = Self.campaignJSON(["rule": #"{"type": "fixed", "amount": 19.99}"#, "minimumSubtotal": #""1,250.50""#])
        let campaign = try #require(try Self.read(Self.file([fixed]), currency: .eur).first)
        #expect(campaign.discount == .fixedAmount(Money(minorUnits: 19_99, currency: .eur)))
        #expect(campaign.minimumSubtotal == Money(minorUnits: 1_250_50, currency: .eur))

        let yen = Self.campaignJSON(["rule": #"{"type": "fixed", "amount": "500"}"#, "minimumSubtotal": #""3000""#])
        let inYen = try #require(try Self.read(Self.file([yen]), currency: .jpy).first)
        #expect(inYen.discount == .fixedAmount(Money(minorUnits: 500, currency: .jpy)))
    }

    @Test func percentagesFromOneToAHundredAreAccepted() throws {
        for percent in [1, 100] {
            let text = Self.file([Self.campaignJSON(["rule": #"{"type": "percentage", "percent": \#(percent)}"#])])
            #expect(try Self.read(text).first?.discount == .percentage(percent))
        }
    }

    @Test func appliesToDefaultsToTheWholeCart() throws {
        let text = Self.file([Self.campaignJSON(["appliesTo": nil, "voucherCode": nil, "minimumSubtotal": nil])])
        let campaign = try #require(try Self.read(text).first)
        #expect(campaign.target == .wholeCart)
        #expect(campaign.voucherCode == nil)
        #expect(campaign.minimumSubtotal == nil)
    }

    @Test func anEmptyListIsAValidFileWithNoCampaigns() throws {
        #expect(try Self.read(#"{"campaigns": []}"#).isEmpty)
    }

    // MARK: date-times

    struct TimeCase: Sendable, CustomTestStringConvertible {
        var text: String
        /// The expected instant as UTC wall-clock fields.
        var utc: (Int, Int, Int, Int, Int, Int)
        var testDescription: String { text }
    }

    @Test(arguments: [
        TimeCase(text: "2026-12-01T00:00:00+03:00", utc: (2026, 11, 30, 21, 0, 0)),
        TimeCase(text: "2026-12-01T00:00:00Z", utc: (2026, 12, 1, 0, 0, 0)),
        TimeCase(text: "2026-12-01t00:00:00z", utc: (2026, 12, 1, 0, 0, 0)),
        TimeCase(text: "2026-12-01 00:00:00+00:00", utc: (2026, 12, 1, 0, 0, 0)),
        TimeCase(text: "2026-11-30T19:30:00-05:30", utc: (2026, 12, 1, 1, 0, 0)),
        TimeCase(text: "2027-01-01T01:02:03+14:00", utc: (2026, 12, 31, 11, 2, 3)),
        TimeCase(text: "2028-02-29T23:59:59-01:00", utc: (2028, 3, 1, 0, 59, 59)),
        TimeCase(text: "1999-12-31T23:59:59Z", utc: (1999, 12, 31, 23, 59, 59)),
    ])
    func dateTimesWithAnOffsetAreExactInstants(_ time: TimeCase) throws {
        let text = Self.file([Self.campaignJSON(["startsAt": "\"\(time.text)\"", "endsAt": #""2099-01-01T00:00:00Z""#])])
        let campaign = try #require(try Self.read(text).first)
        let (y, m, d, h, min, s) = time.utc
        #expect(campaign.startsAt == Self.instant(y, m, d, h, min, s, in: Self.utc))
    }

    struct BadTime: Sendable, CustomTestStringConvertible {
        var text: String
        var says: String
        var testDescription: String { text }
    }

    @Test(arguments: [
        BadTime(text: "2026-12-01T00:00:00", says: "has no time zone"),
        BadTime(text: "2026-12-01", says: "needs a time and a time zone"),
        BadTime(text: "2026-12-01T00:00:00.500Z", says: "fractional seconds"),
        BadTime(text: "2026-13-01T00:00:00Z", says: "not a real date"),
        BadTime(text: "2026-02-29T00:00:00Z", says: "not a real date"),
        BadTime(text: "2026-12-01T24:00:00Z", says: "not a real date"),
        BadTime(text: "2026-12-31T23:59:60Z", says: "not a real date"),
        BadTime(text: "2026-12-01T00:00:00+0300", says: "is not a date-time such as"),
        BadTime(text: "2026-12-01T00:00:00 Europe/Istanbul", says: "is not a date-time such as"),
        BadTime(text: "1 December 2026", says: "is not a date-time such as"),
        BadTime(text: "", says: "is required"),
    ])
    func dateTimesWithoutATimeZoneOrMalformedAreRejected(_ bad: BadTime) throws {
        let text = Self.file([Self.campaignJSON(["startsAt": "\"\(bad.text)\""])])
        let error = try #require(Self.error(text))
        #expect(error.campaignID == "winter-sale")
        #expect(error.position == 1)
        #expect(error.field == "startsAt")
        #expect(error.message.contains(bad.says), "\(error.message)")
        #expect(error.description.contains("campaign “winter-sale” (#1), field “startsAt”"))
    }

    @Test func endsAtWithoutATimeZoneIsNamedToo() throws {
        let error = try #require(Self.error(Self.file([Self.campaignJSON(["endsAt": #""2027-01-01T00:00:00""#])])))
        #expect(error.field == "endsAt")
        #expect(error.message.contains("has no time zone"))
    }

    // MARK: the time window, in a shop time zone that is not UTC

    @Test func campaignIsActiveFromItsStartInstantAndNotOneSecondBefore() throws {
        let text = Self.file([Self.campaignJSON([
            "startsAt": #""2026-12-01T00:00:00+03:00""#, "endsAt": #""2027-01-01T00:00:00+03:00""#,
        ])])
        let campaign = try #require(try Self.read(text).first)
        // Midnight of 1 December on an Istanbul clock (the shop's time zone, UTC+3) is the start.
        let start = Self.instant(2026, 12, 1, in: Self.istanbul)
        #expect(campaign.startsAt == start)
        #expect(campaign.isActive(at: start))
        #expect(!campaign.isActive(at: start.addingTimeInterval(-1)))
        // In UTC that instant is still 30 November.
        #expect(start == Self.instant(2026, 11, 30, 21, in: Self.utc))
        #expect(!campaign.isActive(at: Self.instant(2026, 11, 30, 20, 59, 59, in: Self.utc)))
    }

    @Test func campaignEndsAtItsEndInstantExclusive() throws {
        let text = Self.file([Self.campaignJSON([
            "startsAt": #""2026-12-01T00:00:00+03:00""#, "endsAt": #""2027-01-01T00:00:00+03:00""#,
        ])])
        let campaign = try #require(try Self.read(text).first)
        let end = Self.instant(2027, 1, 1, in: Self.istanbul)
        #expect(campaign.endsAt == end)
        #expect(campaign.isActive(at: end.addingTimeInterval(-1)))
        #expect(!campaign.isActive(at: end))
    }

    @Test func theSameWallClockInAnotherOffsetIsAnotherInstant() throws {
        // "Midnight" written with New York's offset starts 8 hours after Istanbul's midnight.
        let text = Self.file([Self.campaignJSON([
            "startsAt": #""2026-12-01T00:00:00-05:00""#, "endsAt": #""2027-01-01T00:00:00-05:00""#,
        ])])
        let campaign = try #require(try Self.read(text).first)
        let istanbulMidnight = Self.instant(2026, 12, 1, in: Self.istanbul)
        #expect(!campaign.isActive(at: istanbulMidnight))
        #expect(!campaign.isActive(at: istanbulMidnight.addingTimeInterval(8 * 3_600 - 1)))
        #expect(campaign.isActive(at: istanbulMidnight.addingTimeInterval(8 * 3_600)))
    }

    // MARK: invalid campaigns, one mistake each

    struct Mistake: Sendable, CustomTestStringConvertible {
        var name: String
        var edits: [String: String?]
        var field: String
        var says: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Mistake(name: "unknown rule type", edits: ["rule": #"{"type": "bogo"}"#], field: "rule.type", says: "unknown rule type “bogo”"),
        Mistake(name: "rule without type", edits: ["rule": #"{"percent": 10}"#], field: "rule.type", says: "is required"),
        Mistake(name: "percent 0", edits: ["rule": #"{"type": "percentage", "percent": 0}"#], field: "rule.percent", says: "0 is outside 1…100"),
        Mistake(name: "percent 150", edits: ["rule": #"{"type": "percentage", "percent": 150}"#], field: "rule.percent", says: "150 is outside 1…100"),
        Mistake(name: "percent -5", edits: ["rule": #"{"type": "percentage", "percent": -5}"#], field: "rule.percent", says: "outside 1…100"),
        Mistake(name: "percent not whole", edits: ["rule": #"{"type": "percentage", "percent": 12.5}"#], field: "rule.percent", says: "not a whole number"),
        Mistake(name: "percent missing", edits: ["rule": #"{"type": "percentage"}"#], field: "rule.percent", says: "is required"),
        Mistake(name: "fixed amount zero", edits: ["rule": #"{"type": "fixed", "amount": "0.00"}"#], field: "rule.amount", says: "more than 0"),
        Mistake(name: "fixed amount negative", edits: ["rule": #"{"type": "fixed", "amount": "-5.00"}"#], field: "rule.amount", says: "more than 0"),
        Mistake(name: "fixed amount not a number", edits: ["rule": #"{"type": "fixed", "amount": "ten"}"#], field: "rule.amount", says: "not an amount"),
        Mistake(name: "fixed amount missing", edits: ["rule": #"{"type": "fixed"}"#], field: "rule.amount", says: "is required"),
        Mistake(name: "percent on a fixed rule", edits: ["rule": #"{"type": "fixed", "amount": "5", "percent": 5}"#], field: "rule.percent", says: "unknown field “percent”"),
        Mistake(name: "rule not an object", edits: ["rule": "20"], field: "rule", says: "expected an object"),
        Mistake(name: "rule missing", edits: ["rule": nil], field: "rule", says: "is required"),
        Mistake(name: "ends when it starts", edits: ["endsAt": #""2026-12-01T00:00:00+03:00""#], field: "endsAt", says: "later than startsAt"),
        Mistake(name: "ends before it starts", edits: ["endsAt": #""2026-11-30T20:59:59Z""#], field: "endsAt", says: "later than startsAt"),
        Mistake(name: "voucher code with a space", edits: ["voucherCode": #""WIN TER""#], field: "voucherCode", says: "not a usable code"),
        Mistake(name: "voucher code with punctuation", edits: ["voucherCode": #""WINTER20!""#], field: "voucherCode", says: "not a usable code"),
        Mistake(name: "voucher code too long", edits: ["voucherCode": "\"" + String(repeating: "A", count: 41) + "\""], field: "voucherCode", says: "not a usable code"),
        Mistake(name: "voucher code a number", edits: ["voucherCode": "2026"], field: "voucherCode", says: "expected a string"),
        Mistake(name: "empty product list", edits: ["appliesTo": #"{"type": "products", "products": []}"#], field: "appliesTo.products", says: "is empty"),
        Mistake(name: "product listed twice", edits: ["appliesTo": #"{"type": "products", "products": ["a", "b", "a"]}"#], field: "appliesTo.products", says: "lists “a” twice"),
        Mistake(name: "products missing", edits: ["appliesTo": #"{"type": "products"}"#], field: "appliesTo.products", says: "is required"),
        Mistake(name: "category missing", edits: ["appliesTo": #"{"type": "category"}"#], field: "appliesTo.category", says: "is required"),
        Mistake(name: "unknown target type", edits: ["appliesTo": #"{"type": "brand", "brand": "x"}"#], field: "appliesTo.type", says: "unknown target type “brand”"),
        Mistake(name: "typo in appliesTo", edits: ["appliesTo": #"{"type": "category", "categry": "lamps"}"#], field: "appliesTo.categry", says: "did you mean “category”?"),
        Mistake(name: "usage limit zero", edits: ["usageLimitPerAccount": "0"], field: "usageLimitPerAccount", says: "at least 1"),
        Mistake(name: "usage limit negative", edits: ["usageLimitPerAccount": "-1"], field: "usageLimitPerAccount", says: "at least 1"),
        Mistake(name: "typo startAt", edits: ["startsAt": nil, "startAt": #""2026-12-01T00:00:00Z""#], field: "startAt", says: "unknown field “startAt” — did you mean “startsAt”?"),
        Mistake(name: "typo in a field name's case", edits: ["voucherCode": nil, "vouchercode": #""X""#], field: "vouchercode", says: "did you mean “voucherCode”?"),
        Mistake(name: "unrelated unknown field", edits: ["priority": "1"], field: "priority", says: "unknown field “priority”"),
        Mistake(name: "title missing", edits: ["title": nil], field: "title", says: "is required"),
        Mistake(name: "title blank", edits: ["title": #""   ""#], field: "title", says: "is required"),
        Mistake(name: "id with spaces and capitals", edits: ["id": #""Winter Sale""#], field: "id", says: "not a usable id"),
        Mistake(name: "image with a script URL", edits: ["image": #""javascript:alert(1)""#], field: "image", says: "not a site path"),
        Mistake(name: "image protocol-relative", edits: ["image": #""//evil.example/x.png""#], field: "image", says: "not a site path"),
        Mistake(name: "minimum zero", edits: ["minimumSubtotal": #""0""#], field: "minimumSubtotal", says: "more than 0"),
        Mistake(name: "minimum not an amount", edits: ["minimumSubtotal": "true"], field: "minimumSubtotal", says: "expected an amount"),
    ])
    func invalidCampaignIsRejectedNamingTheCampaignAndTheField(_ mistake: Mistake) throws {
        let text = Self.file([Self.campaignJSON(["id": #""fine""#, "voucherCode": #""FINE""#]), Self.campaignJSON(mistake.edits)])
        let error = try #require(Self.error(text))
        #expect(error.position == 2)
        #expect(error.field == mistake.field)
        #expect(error.message.contains(mistake.says), "\(error.message)")
        #expect(error.line == 3)  // the second campaign's line in the file
        let name = mistake.edits["id"].flatMap { $0 } ?? #""winter-sale""#
        #expect(error.campaignID == String(name.dropFirst().dropLast()))
        #expect(error.description.hasPrefix("campaigns.json:3: campaign “\(error.campaignID ?? "")” (#2), field “\(mistake.field)”: "))
    }

    @Test func campaignWithoutAnIdIsNamedByPosition() throws {
        let error = try #require(Self.error(Self.file([Self.campaignJSON(["id": nil])])))
        #expect(error.campaignID == nil)
        #expect(error.field == "id")
        #expect(error.description == "campaigns.json:2: campaign #1, field “id”: is required")
    }

    @Test func campaignThatIsNotAnObjectIsNamedByPosition() throws {
        let error = try #require(Self.error(Self.file([Self.campaignJSON(), #""oops""#])))
        #expect(error.position == 2)
        #expect(error.message.contains("must be a JSON object"))
    }

    // MARK: mistakes across campaigns

    @Test func repeatedIdIsRejectedAtItsSecondUse() throws {
        let text = Self.file([Self.campaignJSON(["voucherCode": #""A1""#]), Self.campaignJSON(["voucherCode": #""B2""#])])
        let error = try #require(Self.error(text))
        #expect(error.position == 2)
        #expect(error.campaignID == "winter-sale")
        #expect(error.field == "id")
        #expect(error.message.contains("campaign #1 already has the id “winter-sale”"))
    }

    // MARK: translations (issue #11)

    @Test(.bug(id: "11", "campaign titles stay English on Turkish/Spanish pages"))
    func translatedTitleAndDescriptionLoadAndPlainStringsStillDo() throws {
        let campaigns = try Self.read(Self.file([
            Self.campaignJSON(["title": #"{"en": "Winter sale", "tr": "Kış indirimi", "es": "Rebajas de invierno"}"#,
                               "description": #"{"en": "20% off. ", "tr": "%20 indirim."}"#]),
            Self.campaignJSON(["id": #""plain""#, "voucherCode": nil]),
        ]))
        #expect(campaigns[0].title == LocalizedText("Winter sale", translations: [.turkish: "Kış indirimi",
                                                                                   .spanish: "Rebajas de invierno"]))
        #expect(campaigns[0].description.text(in: .turkish) == "%20 indirim.")
        #expect(campaigns[0].description.text(in: .spanish) == "20% off.")  // trimmed default
        #expect(campaigns[1].title == "Winter sale")
        #expect(campaigns[1].title.translations.isEmpty)
    }

    @Test(arguments: [
        (#"{"en": "Winter sale", "de": "Winterschlussverkauf"}"#, "“de” is not a language the shop speaks"),
        (#"{"tr": "Kış indirimi"}"#, "needs an “en” text"),
        (#"{"en": "Winter sale", "tr": ""}"#, "“tr” text is empty"),
        (#"["Winter sale"]"#, "an object of texts by language"),
    ])
    func aBadTranslatedTitleNamesTheCampaignFieldAndLine(title: String, says: String) throws {
        let text = Self.file([Self.campaignJSON(), Self.campaignJSON(["id": #""second""#, "voucherCode": nil, "title": title])])
        let error = try #require(Self.error(text))
        #expect(error.campaignID == "second")
        #expect(error.field == "title")
        #expect(error.line == 3)
        #expect(error.message.contains(says), "\(error)")
        #expect(error.description.hasPrefix("campaigns.json:3: campaign “second” (#2), field “title”:"), "\(error)")
    }

    @Test func repeatedVoucherCodeIsRejectedWhateverItsCase() throws {
        let text = Self.file([
            Self.campaignJSON(["id": #""first""#, "voucherCode": #""Winter20""#]),
            Self.campaignJSON(["id": #""second""#, "voucherCode": nil]),
            Self.campaignJSON(["id": #""third""#, "voucherCode": #"" winter20 ""#]),
        ])
        let error = try #require(Self.error(text))
        #expect(error.position == 3)
        #expect(error.campaignID == "third")
        #expect(error.field == "voucherCode")
        #expect(error.message.contains("campaign #1 already uses the code WINTER20"))
    }

    @Test func oneBadCampaignRejectsTheWholeFile() throws {
        let data = try Self.fixture("typo.json")
        do throws(CampaignFileError) {
            let campaigns = try CampaignFile.read(data, fileName: "typo.json", currency: .usd)
            Issue.record("expected a rejection, got \(campaigns.map(\.id))")
        } catch {
            #expect(error.description
                == "typo.json:13: campaign “typo” (#2), field “startAt”: unknown field “startAt” — did you mean “startsAt”? "
                + "Known here: id, title, description, image, startsAt, endsAt, rule, appliesTo, minimumSubtotal, "
                + "voucherCode, usageLimitPerAccount, paused.")
        }
    }

    // MARK: the file as a whole

    struct FileMistake: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var field: String?
        var line: Int?
        var says: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        FileMistake(name: "not JSON", text: "{\"campaigns\": [\n{\"id\": }]}", field: nil, line: 2, says: "not valid JSON"),
        FileMistake(name: "an array at the top", text: "[]", field: nil, line: 1, says: "must be a JSON object"),
        FileMistake(name: "no campaigns", text: "{}", field: "campaigns", line: 1, says: "is required"),
        FileMistake(name: "campaigns not an array", text: #"{"campaigns": {}}"#, field: "campaigns", line: 1, says: "expected an array"),
        FileMistake(name: "unknown top-level field", text: #"{"campaigns": [], "campaign": []}"#, field: "campaign", line: 1, says: "did you mean “campaigns”?"),
        FileMistake(name: "another currency", text: #"{"currency": "EUR", "campaigns": []}"#, field: "currency", line: 1, says: "the shop sells in USD"),
    ])
    func fileLevelMistakesAreRejected(_ mistake: FileMistake) throws {
        let error = try #require(Self.error(mistake.text))
        #expect(error.position == nil)
        #expect(error.field == mistake.field)
        #expect(error.line == mistake.line)
        #expect(error.message.contains(mistake.says), "\(error.message)")
    }

    // MARK: the demo file shipped with the app

    /// `serve --currency TRY` on a fresh database loads the demo campaigns in the shop's currency
    /// (their amounts, like the demo catalog's prices, are read in it) instead of refusing them.
    @Test(.bug("issue #11", "the demo campaigns follow the shop currency"),
          arguments: [Currency.usd, .try, .eur, .jpy, try! Currency(code: "KWD")])
    func demoCampaignsFollowTheShopCurrency(currency: Currency) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/shoppable/DemoCatalog/campaigns.json")
        let campaigns = try CampaignFile.read(try Data(contentsOf: url), fileName: "campaigns.json", currency: currency)
        var amounts = campaigns.compactMap(\.minimumSubtotal)
        for campaign in campaigns { if case let .fixedAmount(amount) = campaign.discount { amounts.append(amount) } }
        #expect(!amounts.isEmpty)
        #expect(amounts.allSatisfy { $0.currency == currency })
        // Texts name no amount: a symbol would contradict the shop's currency.
        for campaign in campaigns {
            for language in Language.allCases {
                let text = campaign.title.text(in: language) + campaign.description.text(in: language)
                #expect(!text.contains { "$€£¥₺".contains($0) }, "\(campaign.id) in \(language)")
            }
        }
    }

    @Test func demoCampaignsAreValidAndReferToTheDemoCatalog() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/shoppable/DemoCatalog")
        let campaigns = try CampaignFile.read(try Data(contentsOf: folder.appendingPathComponent("campaigns.json")),
                                              fileName: "campaigns.json", currency: .usd)
        let catalog = try CatalogImporter(currency: .usd).read(
            try Data(contentsOf: folder.appendingPathComponent("catalog.json")), fileName: "catalog.json",
            format: .shoppableJSON)
        let productHandles = Set(catalog.products.map(\.handle))
        let categoryHandles = Set(catalog.products.compactMap(\.categoryName).map { Handle.make(from: $0) })

        #expect(campaigns.count >= 3)
        for campaign in campaigns {
            // Issue #11: every demo title and description speaks Turkish and Spanish too.
            for language in [Language.turkish, .spanish] {
                #expect(campaign.title.translations[language] != nil, "\(campaign.id) title in \(language)")
                #expect(campaign.description.translations[language] != nil, "\(campaign.id) description in \(language)")
            }
            switch campaign.target {
            case .wholeCart: break
            case let .category(handle): #expect(categoryHandles.contains(handle), "\(campaign.id): \(handle)")
            case let .products(handles):
                for handle in handles { #expect(productHandles.contains(handle), "\(campaign.id): \(handle)") }
            }
            if let image = campaign.imageURL {
                let file = folder.deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("ShopWeb/Public/images")
                    .appendingPathComponent(String(image.dropFirst("/static/images/".count)))
                #expect(FileManager.default.fileExists(atPath: file.path), "\(campaign.id): \(image)")
            }
        }
        let demoDay = Self.instant(2026, 11, 30, 12, in: Self.utc)
        let active = campaigns.filter { $0.isActive(at: demoDay) }
        #expect(active.count >= 3)
        #expect(active.contains { $0.voucherCode != nil && $0.target == .wholeCart })
        #expect(active.contains { if case .category = $0.target { true } else { false } })
        #expect(active.allSatisfy { $0.voucherCode != nil }, "discounts need a code: campaign prices must be honoured")
        #expect(active.contains { if case .fixedAmount = $0.discount, case .products = $0.target { true } else { false } })
    }
}
