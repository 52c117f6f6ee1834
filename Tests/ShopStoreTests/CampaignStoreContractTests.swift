import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import SQLite
import Synchronization
import Testing

/// The campaign contract every store must meet, run against each implementation.
@Suite("Campaign store contract")
struct CampaignStoreContractTests {
    static let start = Fixtures.start

    /// A campaign starting `startOffset` seconds after `start`, running a day.
    static func campaign(_ id: Campaign.ID, startOffset: TimeInterval = 0, code: String? = nil,
                         discount: Discount = .percentage(10), target: DiscountTarget = .wholeCart,
                         title: LocalizedText = "A campaign") -> Campaign {
        Campaign(id: id, title: title, startsAt: start.addingTimeInterval(startOffset),
                 endsAt: start.addingTimeInterval(startOffset + 86_400), discount: discount, target: target,
                 voucherCode: code.flatMap(VoucherCode.init))
    }

    /// One of each kind of rule and target, every optional field set on some.
    static let everyKind: [Campaign] = [
        Campaign(id: "welcome",
                 title: LocalizedText("Welcome: 10% off", translations: [.turkish: "Hoş geldiniz: %10 indirim",
                                                                         .spanish: "Bienvenida: 10 % de descuento"]),
                 description: LocalizedText("Ten percent off your first order.\nOnce.",
                                            translations: [.turkish: "İlk siparişinizde %10 indirim.\nBir kez."]),
                 imageURL: "/static/images/campaigns/welcome.svg", startsAt: start, endsAt: start.addingTimeInterval(90 * 86_400),
                 discount: .percentage(10), target: .wholeCart, minimumSubtotal: Money(minorUnits: 50_00, currency: .usd),
                 voucherCode: VoucherCode("WELCOME10"), usageLimitPerAccount: 1),
        Campaign(id: "winter-light", title: "Winter light", startsAt: start.addingTimeInterval(-3_600),
                 endsAt: start.addingTimeInterval(3_600), discount: .percentage(100), target: .category(handle: "lamps")),
        Campaign(id: "take-a-seat", title: "Take a seat", description: "Chairs “on sale” — 20 off.",
                 imageURL: "https://cdn.example.com/chairs.png", startsAt: start, endsAt: start.addingTimeInterval(1),
                 discount: .fixedAmount(Money(minorUnits: 20_00, currency: .eur)),
                 target: .products(handles: ["oak-dining-chair", "bentwood-cafe-chair", "çay-bardağı"]),
                 minimumSubtotal: Money(minorUnits: 1_000, currency: .jpy), voucherCode: VoucherCode("SEAT20"),
                 usageLimitPerAccount: 3),
    ]

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func replacedCampaignsLoadBackByStartThenID(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        #expect(try store.all().isEmpty)
        let result = try store.replaceAll(Self.everyKind)
        #expect(result.added == ["welcome", "winter-light", "take-a-seat"])
        #expect(result.updated.isEmpty && result.unchanged.isEmpty && result.removed.isEmpty)

        // winter-light starts an hour earlier; welcome and take-a-seat start together: by id.
        #expect(try store.all() == [Self.everyKind[1], Self.everyKind[2], Self.everyKind[0]])
        for campaign in Self.everyKind {
            #expect(try store.campaign(campaign.id) == campaign)
        }
        #expect(try store.campaign("nope") == nil)
    }

    /// Issue #11: the translations are stored with the campaign; changing only one is a change.
    @Test(arguments: StoreKind.engines(for: .campaigns))
    func translationsAreKeptAndChangingOneUpdatesTheCampaign(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        let plain = Self.campaign("sale", title: "Sale")
        _ = try store.replaceAll([plain])
        #expect(try store.campaign("sale")?.title.translations.isEmpty == true)
        var translated = plain
        translated.title = LocalizedText("Sale", translations: [.turkish: "İndirim", .spanish: "Rebajas"])
        let result = try store.replaceAll([translated])
        #expect(result.updated == ["sale"])
        #expect(try store.campaign("sale") == translated)
        #expect(try store.campaign("sale")?.title.text(in: .spanish) == "Rebajas")
        #expect(try store.replaceAll([translated]).unchanged == ["sale"])
    }

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func voucherCodeLookupIgnoresCaseAndFindsInactiveCampaignsToo(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        _ = try store.replaceAll(Self.everyKind)
        let welcome = Self.everyKind[0]
        #expect(try store.byVoucherCode(try #require(VoucherCode("welcome10"))) == welcome)
        #expect(try store.byVoucherCode(try #require(VoucherCode(" Welcome10 "))) == welcome)
        #expect(try store.byVoucherCode(try #require(VoucherCode("SEAT20")))?.id == "take-a-seat")  // ended a second in
        #expect(try store.byVoucherCode(try #require(VoucherCode("WELCOME1"))) == nil)
        #expect(try store.byVoucherCode(try #require(VoucherCode("winter-light"))) == nil)  // an id, not a code
    }

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func theFileIsTheTruthCampaignsNotInItAreRemoved(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        _ = try store.replaceAll([Self.campaign("a", code: "A1"), Self.campaign("b", code: "B1"), Self.campaign("c")])

        var changedB = Self.campaign("b", code: "B1")
        changedB.title = "B, retitled"
        let result = try store.replaceAll([Self.campaign("d"), changedB, Self.campaign("a", code: "A1")])
        #expect(result.added == ["d"])
        #expect(result.updated == ["b"])
        #expect(result.unchanged == ["a"])
        #expect(result.removed == ["c"])
        #expect(try store.all().map(\.id) == ["a", "b", "d"])
        #expect(try store.campaign("b")?.title == "B, retitled")
        #expect(try store.campaign("c") == nil)

        let emptied = try store.replaceAll([])
        #expect(emptied.removed == ["a", "b", "d"])
        #expect(try store.all().isEmpty)
        #expect(try store.byVoucherCode(try #require(VoucherCode("A1"))) == nil)
    }

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func aVoucherCodeMayMoveToAnotherCampaignInOneReplace(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        _ = try store.replaceAll([Self.campaign("a", code: "SWAP1"), Self.campaign("b", code: "SWAP2"),
                                  Self.campaign("c", code: "GONE")])
        _ = try store.replaceAll([Self.campaign("a", code: "SWAP2"), Self.campaign("b", code: "SWAP1"),
                                  Self.campaign("d", code: "GONE")])
        #expect(try store.byVoucherCode(try #require(VoucherCode("SWAP1")))?.id == "b")
        #expect(try store.byVoucherCode(try #require(VoucherCode("SWAP2")))?.id == "a")
        #expect(try store.byVoucherCode(try #require(VoucherCode("GONE")))?.id == "d")
    }

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func timesAreKeptToTheWholeSecond(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        var campaign = Self.campaign("a")
        campaign.startsAt = Self.start.addingTimeInterval(0.9)
        campaign.endsAt = Self.start.addingTimeInterval(60.5)
        _ = try store.replaceAll([campaign])
        let stored = try #require(try store.campaign("a"))
        #expect(stored.startsAt == Self.start)
        #expect(stored.endsAt == Self.start.addingTimeInterval(60))
        // Loading the same file again changes nothing.
        #expect(try store.replaceAll([campaign]).unchanged == ["a"])
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var campaigns: [Campaign]
        var error: CampaignStoreError
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "same id twice", campaigns: [campaign("a"), campaign("b"), campaign("a", startOffset: 5)],
                error: .duplicateID("a")),
        Refusal(name: "same code twice", campaigns: [campaign("a", code: "X1"), campaign("b", code: "x1")],
                error: .duplicateVoucherCode(VoucherCode("X1")!)),
        Refusal(name: "ends when it starts",
                campaigns: [Campaign(id: "a", title: "A", startsAt: start, endsAt: start, discount: .percentage(5))],
                error: .emptyTimeWindow("a")),
        Refusal(name: "ends within its first second",
                campaigns: [Campaign(id: "a", title: "A", startsAt: start.addingTimeInterval(0.2),
                                     endsAt: start.addingTimeInterval(0.8), discount: .percentage(5))],
                error: .emptyTimeWindow("a")),
    ]

    @Test(arguments: StoreKind.engines(for: .campaigns), refusals)
    func invalidListsAreRefusedAndNothingIsWritten(kind: StoreKind, refusal: Refusal) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        let before = [Self.campaign("kept", code: "KEEP")]
        _ = try store.replaceAll(before)
        let version = try store.version()
        let error = #expect(throws: CampaignStoreError.self) { try store.replaceAll(refusal.campaigns) }
        #expect(error == refusal.error)
        #expect(try store.all() == before)
        #expect(try store.version() == version)
    }

    @Test(arguments: StoreKind.engines(for: .campaigns))
    func versionChangesOnlyWhenAReplaceChangesSomething(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        let v0 = try store.version()
        _ = try store.replaceAll([])
        #expect(try store.version() == v0)  // nothing to remove
        _ = try store.replaceAll([Self.campaign("a")])
        let v1 = try store.version()
        #expect(v1 != v0)
        _ = try store.replaceAll([Self.campaign("a")])
        #expect(try store.version() == v1)
        _ = try store.replaceAll([Self.campaign("a", discount: .percentage(11))])
        let v2 = try store.version()
        #expect(v2 != v1)
        _ = try store.replaceAll([])
        #expect(try store.version() != v2)
    }

    // MARK: One campaign at a time (the back office, issue #16 point 5)

    /// Save adds a new campaign and edits a stored one as its editor read it; pausing is kept;
    /// delete removes one. The others are never touched, and each change is audited as its
    /// staff member's.
    @Test(arguments: StoreKind.engines(for: .campaigns))
    func saveAndDeleteChangeOneCampaignAsItsEditorReadIt(kind: StoreKind) throws {
        let harness = try StoreHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let store = harness.campaigns
        _ = try store.replaceAll(Self.everyKind)
        let actor = AuditActor.staff("ada@shop.test")
        let added = try store.save(Self.campaign("spring", startOffset: 60, code: "SPRING5"), revision: nil, by: actor, now: Self.start)
        #expect(added.added == ["spring"] && added.removed.isEmpty && added.unchanged.count == 3)
        #expect(throws: CampaignStoreError.idTaken("spring")) {
            try store.save(Self.campaign("spring"), revision: nil, by: actor, now: Self.start)
        }
        var spring = try #require(try store.campaign("spring"))
        let read = CampaignStore.revision(of: spring)
        spring.isPaused = true
        spring.discount = .percentage(15)
        #expect(try store.save(spring, revision: read, by: actor, now: Self.start).updated == ["spring"])
        #expect(try store.campaign("spring") == spring && spring.isActive(at: Self.start.addingTimeInterval(120)) == false)
        #expect(CampaignStore.revision(of: spring) != read, "a change gives a new revision")
        // Someone saving from the form read before that change is refused; nothing is written.
        var stale = spring
        stale.title = "Stale"
        #expect(throws: CampaignStoreError.changedSinceRead("spring")) { try store.save(stale, revision: read, by: actor, now: Self.start) }
        #expect(throws: CampaignStoreError.changedSinceRead("spring")) { try store.delete("spring", revision: read, by: actor, now: Self.start) }
        #expect(throws: CampaignStoreError.campaignNotFound("nope")) {
            try store.save(Self.campaign("nope"), revision: read, by: actor, now: Self.start)
        }
        // A code another campaign has is refused as the file's would be.
        var copy = spring
        copy.voucherCode = VoucherCode("welcome10")
        #expect(throws: CampaignStoreError.duplicateVoucherCode(VoucherCode("WELCOME10")!)) {
            try store.save(copy, revision: CampaignStore.revision(of: spring), by: actor, now: Self.start)
        }
        #expect(try store.campaign("spring")?.title.defaultText == "A campaign")
        let removed = try store.delete("spring", revision: CampaignStore.revision(of: spring), by: actor, now: Self.start)
        #expect(removed.removed == ["spring"])
        #expect(try store.all().map(\.id).sorted { $0.rawValue < $1.rawValue } == ["take-a-seat", "welcome", "winter-light"])
        let entries = try harness.audit.entries(AuditQuery(subject: "campaign", actor: "ada@shop.test")).entries
        #expect(entries.map(\.action) == ["delete", "update", "create"], "newest first, one per change")
        #expect(entries[1].changes.map(\.field).sorted() == ["discount", "isPaused"])
    }

    /// The revision is the stored campaign's, the same whoever computes it, and changes with
    /// any field.
    @Test func theRevisionChangesWithEveryField() throws {
        let base = Self.everyKind[0]
        var variants: [Campaign] = []
        func with(_ change: (inout Campaign) -> Void) { var copy = base; change(&copy); variants.append(copy) }
        with { $0.title = LocalizedText("Other", translations: base.title.translations) }
        with { $0.title = LocalizedText(base.title.defaultText, translations: [.turkish: "Başka"]) }
        with { $0.description = "Other" }
        with { $0.imageURL = nil }
        with { $0.startsAt += 1 }
        with { $0.endsAt += 1 }
        with { $0.discount = .percentage(11) }
        with { $0.target = .category(handle: "lamps") }
        with { $0.minimumSubtotal = nil }
        with { $0.voucherCode = VoucherCode("OTHER") }
        with { $0.usageLimitPerAccount = 2 }
        with { $0.isPaused = true }
        let revisions = Set([CampaignStore.revision(of: base)] + variants.map(CampaignStore.revision(of:)))
        #expect(revisions.count == variants.count + 1)
        #expect(CampaignStore.revision(of: base) == CampaignStore.revision(of: base))
        var subSecond = base
        subSecond.startsAt += 0.25
        #expect(CampaignStore.revision(of: subSecond) == CampaignStore.revision(of: base), "as stored: whole seconds")
    }

    /// Two staff members save different campaigns at once: both saves land (each re-reads the
    /// set inside its transaction; neither writes back a stale copy of the other's campaign).
    /// Two saving the same campaign from the same read: exactly one wins, the other is told.
    @Test(arguments: StoreKind.engines(for: .campaigns).filter { $0 != .sqlite })
    func savesAtOnceNeverLoseOneAnother(kind: StoreKind) throws {
        let harness = try StoreHarness(kind, poolSize: 4)
        let store = harness.campaigns
        let ids = (0..<12).map { Campaign.ID("c\($0)") }
        _ = try store.replaceAll(ids.map { Self.campaign($0) })
        let read = try Dictionary(uniqueKeysWithValues: store.all().map { ($0.id, CampaignStore.revision(of: $0)) })
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            var campaign = Self.campaign(ids[index])
            campaign.discount = .percentage(20 + index)
            do {
                _ = try store.save(campaign, revision: read[ids[index]], by: .staff("s\(index)@shop.test"), now: Self.start)
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try store.all().map(\.discount).sorted { "\($0)" < "\($1)" }
                == (0..<12).map { Discount.percentage(20 + $0) }.sorted { "\($0)" < "\($1)" })

        let c0 = CampaignStore.revision(of: try #require(try store.campaign("c0")))
        let outcomes = Mutex<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            var campaign = Self.campaign("c0")
            campaign.title = LocalizedText("Editor \(index)")
            let saved = (try? store.save(campaign, revision: c0, by: .staff("e\(index)@shop.test"), now: Self.start)) != nil
            outcomes.withLock { $0.append(saved) }
        }
        #expect(outcomes.withLock { $0.filter { $0 }.count } == 1, "one save from that read, the others refused")
    }

    // MARK: SQLite only

    /// Another process's replace is seen within `otherWritersSeenWithin` (10 ms; the version
    /// is remembered between requests), this process's at once.
    /// Imports at once take turns on every pooled engine: each succeeds, and the store holds
    /// exactly one import's set (on PostgreSQL `replaceAll` locks `campaign_state` first;
    /// without it two imports both insert `shared` and collide on its id).
    @Test(arguments: StoreKind.engines(for: .campaigns).filter { $0 != .sqlite })
    func replacesAtOnceTakeTurns(kind: StoreKind) throws {
        let harness = try StoreHarness(kind, poolSize: 4)
        let campaigns = harness.campaigns
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            do {
                _ = try campaigns.replaceAll([Self.campaign("shared", title: LocalizedText("Shared \(index)")),
                                              Self.campaign(Campaign.ID("own-\(index)"), startOffset: 60)])
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let stored = try campaigns.all()
        #expect(stored.count == 2 && stored.first?.id == "shared")
        let last = try #require(stored.last?.id.rawValue.dropFirst("own-".count))
        #expect(stored.first?.title.defaultText == "Shared \(last)", "one import's whole set, not a mix")
    }

    @Test func anotherProcesssReplaceIsSeenWithinItsBoundAndOwnAtOnce() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let server = try SQLiteDatabase.open(path: path.path, poolSize: 2)
        defer { server.close() }
        let importer = try SQLiteDatabase.open(path: path.path, poolSize: 1)  // `shoppable campaigns import`
        defer { importer.close() }
        let serverStore = CampaignStore.sqlite(server)
        let version = try serverStore.version()
        _ = try CampaignStore.sqlite(importer).replaceAll(Self.everyKind)
        let deadline = ContinuousClock.now + .seconds(2)
        while try serverStore.version() == version, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(try serverStore.version() != version)
        #expect(try serverStore.all().count == 3)
        let afterImport = try serverStore.version()
        _ = try serverStore.replaceAll([Self.campaign("a")])
        #expect(try serverStore.version() != afterImport, "this process's own replace, at once")
    }

    @Test func schemaRefusesRowsThatAreNotCampaigns() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        defer { database.close() }
        let rows = [
            // both a percentage and an amount
            "('a', 'A', 0, 10, 5, 100, 'USD', 'cart', NULL, NULL)",
            // percentage 0
            "('a', 'A', 0, 10, 0, NULL, NULL, 'cart', NULL, NULL)",
            // ends before it starts
            "('a', 'A', 10, 10, 5, NULL, NULL, 'cart', NULL, NULL)",
            // a category target without its category
            "('a', 'A', 0, 10, 5, NULL, NULL, 'category', NULL, NULL)",
            // an amount without its currency
            "('a', 'A', 0, 10, NULL, 100, NULL, 'cart', NULL, NULL)",
        ]
        for row in rows {
            #expect(throws: SQLiteError.self, "\(row)") {
                try database.withConnection { connection in
                    try connection.execute("""
                        INSERT INTO campaigns (id, title, starts_at, ends_at, discount_percent, discount_amount,
                          discount_currency, target, target_category, target_products) VALUES \(row)
                        """)
                }
            }
        }
        #expect(try CampaignStore.sqlite(database).all().isEmpty)
    }
}
