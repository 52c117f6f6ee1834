import Foundation
import Postgres
import ShopStorePostgres
import ShopCore
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

/// The account, token, throttle and outbox contract every store must meet, run against
/// each implementation.
@Suite("Account store contract")
struct AccountStoreContractTests {
    static let start = Fixtures.start

    // MARK: accounts

    @Test(arguments: StoreKind.engines(for: .accounts))
    func registerCreatesAnUnverifiedAccountWithItsTokenAndQueuedEmail(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let account = Fixtures.newAccount(at: Self.start.addingTimeInterval(0.9))
        let message = Fixtures.message()
        let user = try stores.accounts.register(account, Fixtures.token("v1"), message)

        #expect(user.email == "ana@example.com")
        #expect(user.name == "Ana Lima")
        #expect(user.createdAt == Self.start)  // kept to the second
        #expect(!user.isVerified)
        #expect(try stores.accounts.user(user.id) == user)
        let credentials = try #require(try stores.accounts.credentials("ana@example.com"))
        #expect(credentials.user == user)
        #expect(credentials.passwordHash == account.passwordHash)

        let due = try stores.accounts.dueMessages(Self.start, 10)
        #expect(due.map(\.draft) == [message])
        #expect(due.map(\.attempts) == [0])
        #expect(due.map(\.nextAttemptAt) == [Self.start])
        #expect(try stores.accounts.verifyEmail("v1", Self.start)?.id == user.id)  // the token was stored
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func emailIsTakenWhateverItsCase(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let first = try stores.accounts.register(Fixtures.newAccount("ana@example.com"), Fixtures.token("v1"), Fixtures.message())
        #expect(throws: AccountStoreError.emailTaken) {
            try stores.accounts.register(Fixtures.newAccount("Ana@Example.COM"), Fixtures.token("v2"), Fixtures.message(subject: "2nd"))
        }
        #expect(throws: AccountStoreError.emailTaken) {
            try stores.accounts.createUser(Fixtures.newAccount("ANA@EXAMPLE.COM"), true)
        }
        // Nothing of the refused registration was kept.
        #expect(try stores.accounts.users() == [first])
        #expect(try stores.accounts.dueMessages(Self.start, 10).map(\.draft.subject) == ["Confirm your email"])
        #expect(try stores.accounts.verifyEmail("v2", Self.start) == nil)
        #expect(try stores.accounts.credentials("ANA@example.com")?.user == first)
    }

    /// The stores fold ASCII letters only — the same on every engine, whatever the database's
    /// locale (PostgreSQL's `lower()` follows it: `İ`/`I` in a Turkish database, `É` in most).
    /// The app stores addresses already lower-cased (`EmailRules.normalize`); the store's rule
    /// is only the last guard, and must not differ between engines.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func onlyASCIILettersAreFoldedWhateverTheEngine(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let elodie = try stores.account("élodie@example.com")
        let capital = try stores.account("Élodie@example.com")
        #expect(elodie.id != capital.id, "É and é are different bytes to the store")
        #expect(try stores.accounts.credentials("ÉLODIE@EXAMPLE.COM")?.user == capital)
        #expect(throws: AccountStoreError.emailTaken) { try stores.account("éLODIE@example.com") }
        _ = try stores.accounts.updateUser(elodie.id, AccountUpdate(username: "Ivan"))
        let ivan = try stores.account("ivan@example.com")
        #expect(throws: AccountStoreError.usernameTaken) { try stores.accounts.updateUser(ivan.id, AccountUpdate(username: "IVAN")) }
        #expect(try stores.accounts.userNamed("iVaN")?.id == elodie.id)
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func unknownAccountsAreAbsent(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        #expect(try stores.accounts.user(1) == nil)
        #expect(try stores.accounts.credentials("nobody@example.com") == nil)
        #expect(try stores.accounts.users().isEmpty)
        #expect(throws: AccountStoreError.userNotFound) {
            try stores.accounts.issueToken(1, Fixtures.token("t"), Fixtures.message(), nil)
        }
        #expect(throws: AccountStoreError.userNotFound) { try stores.accounts.changePassword(1, "new-hash", nil) }
        #expect(try stores.accounts.dueMessages(Self.start, 10).isEmpty)
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func createdUsersAreListedOldestFirstAndVerifiedOnRequest(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let later = try stores.accounts.createUser(Fixtures.newAccount("b@example.com", at: Self.start.addingTimeInterval(60)), false)
        let earlier = try stores.accounts.createUser(Fixtures.newAccount("a@example.com", at: Self.start), true)
        #expect(later.id != earlier.id)
        #expect(!later.isVerified)
        #expect(earlier.emailVerifiedAt == Self.start)
        #expect(try stores.accounts.users() == [earlier, later])
    }

    // MARK: tokens

    @Test(arguments: StoreKind.engines(for: .accounts))
    func verificationTokenVerifiesOnceBeforeItExpires(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let expiry = Self.start.addingTimeInterval(86_400)
        let user = try stores.accounts.register(Fixtures.newAccount(), Fixtures.token("v1", expiresAt: expiry), Fixtures.message())
        let now = expiry.addingTimeInterval(-1)

        #expect(try stores.accounts.verifyEmail("unknown", now) == nil)
        let verified = try #require(try stores.accounts.verifyEmail("v1", now))
        #expect(verified.id == user.id)
        #expect(verified.emailVerifiedAt == now)
        #expect(try stores.accounts.user(user.id)?.emailVerifiedAt == now)
        #expect(try stores.accounts.verifyEmail("v1", now) == nil)  // single use
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func expiredOrWrongPurposeTokensDoNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let expiry = Self.start.addingTimeInterval(3_600)
        let user = try stores.accounts.register(Fixtures.newAccount(), Fixtures.token("v1", expiresAt: expiry), Fixtures.message())
        try stores.accounts.issueToken(user.id, Fixtures.token("r1", .passwordReset, expiresAt: expiry), Fixtures.message(), nil)

        #expect(try stores.accounts.verifyEmail("v1", expiry) == nil)  // expired at its expiry time
        #expect(try stores.accounts.verifyEmail("v1", expiry.addingTimeInterval(0.5)) == nil)
        #expect(try stores.accounts.verifyEmail("r1", Self.start) == nil)  // a reset token does not verify
        #expect(try stores.accounts.passwordResetUser("v1", Self.start) == nil)
        #expect(try stores.accounts.resetPassword("v1", "new-hash", Self.start) == nil)
        #expect(try stores.accounts.passwordResetUser("r1", expiry) == nil)
        #expect(try stores.accounts.resetPassword("r1", "new-hash", expiry) == nil)
        #expect(try stores.accounts.user(user.id)?.isVerified == false)
        #expect(try stores.accounts.credentials(user.email)?.passwordHash == Fixtures.newAccount().passwordHash)
        // Tried for the wrong purpose, they still work for their own before they expire.
        #expect(try stores.accounts.passwordResetUser("r1", Self.start)?.id == user.id)
        #expect(try stores.accounts.verifyEmail("v1", Self.start)?.id == user.id)
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func issuingATokenRetiresTheEarlierUnusedOneOfThatPurposeOnly(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.accounts.register(Fixtures.newAccount(), Fixtures.token("v1"), Fixtures.message())
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        try stores.accounts.issueToken(user.id, Fixtures.token("r1", .passwordReset), Fixtures.message(subject: "Reset"), nil)
        try stores.accounts.issueToken(bo.id, Fixtures.token("bo-v", .emailVerification), Fixtures.message(subject: "Bo"), nil)
        try stores.accounts.issueToken(user.id, Fixtures.token("v2"), Fixtures.message(subject: "Confirm again"), nil)

        #expect(try stores.accounts.dueMessages(Self.start, 10).map(\.draft.subject)
                == ["Confirm your email", "Reset", "Bo", "Confirm again"])
        #expect(try stores.accounts.verifyEmail("v1", Self.start) == nil)
        #expect(try stores.accounts.passwordResetUser("r1", Self.start)?.id == user.id)  // other purpose: kept
        #expect(try stores.accounts.verifyEmail("bo-v", Self.start)?.id == bo.id)  // other account: kept
        #expect(try stores.accounts.verifyEmail("v2", Self.start)?.id == user.id)
    }

    // MARK: passwords

    @Test(arguments: StoreKind.engines(for: .accounts))
    func passwordResetSetsTheHashUsesTheTokenAndSignsTheAccountOutEverywhere(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.account()
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        try stores.session("ana-laptop", user: user.id)
        try stores.session("ana-phone", user: user.id)
        try stores.session("bo-phone", user: bo.id)
        try stores.session("guest")
        try stores.accounts.issueToken(user.id, Fixtures.token("r1", .passwordReset), Fixtures.message(), nil)

        #expect(try stores.accounts.passwordResetUser("r1", Self.start) == user)
        #expect(try stores.accounts.passwordResetUser("r1", Self.start) == user)  // looking does not use it
        #expect(try stores.accounts.resetPassword("r1", "new-hash", Self.start) == user)

        #expect(try stores.accounts.credentials(user.email)?.passwordHash == "new-hash")
        #expect(try stores.accounts.credentials(bo.email)?.passwordHash == "hash-of-bo@example.com")
        #expect(try stores.sessions.find("ana-laptop") == nil)
        #expect(try stores.sessions.find("ana-phone") == nil)
        #expect(try stores.sessions.find("bo-phone") != nil)
        #expect(try stores.sessions.find("guest") != nil)
        #expect(try stores.accounts.passwordResetUser("r1", Self.start) == nil)
        #expect(try stores.accounts.resetPassword("r1", "newer-hash", Self.start) == nil)
        #expect(try stores.accounts.credentials(user.email)?.passwordHash == "new-hash")
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func changingThePasswordKeepsOnlyTheCurrentSession(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.account()
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        for id in ["here", "there", "elsewhere"] { try stores.session(Session.ID(id), user: user.id) }
        try stores.session("bo", user: bo.id)

        try stores.accounts.changePassword(user.id, "changed-hash", "here")
        #expect(try stores.accounts.credentials(user.email)?.passwordHash == "changed-hash")
        #expect(try stores.sessions.find("here") != nil)
        #expect(try stores.sessions.find("there") == nil)
        #expect(try stores.sessions.find("elsewhere") == nil)
        #expect(try stores.sessions.find("bo") != nil)

        try stores.accounts.changePassword(user.id, "again-hash", nil)
        #expect(try stores.sessions.find("here") == nil)

        // A reset link asked for before stops working (a fresh tester took an account over
        // with one after the web's password change).
        try stores.accounts.issueToken(user.id, Fixtures.token("r-old", .passwordReset), Fixtures.message(), nil)
        try stores.accounts.changePassword(user.id, "third-hash", nil)
        #expect(try stores.accounts.passwordResetUser("r-old", Self.start) == nil)
        #expect(try stores.accounts.resetPassword("r-old", "taken-over", Self.start) == nil)
    }

    // MARK: updates and deletion

    @Test(arguments: StoreKind.engines(for: .accounts))
    func updatesRefuseAnotherAccountsEmailOrUsernameWhateverTheCase(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let ana = try stores.accounts.createUser(NewAccount(email: "ana@example.com", name: "Ana", passwordHash: "h",
                                                            createdAt: Self.start, profile: AccountProfile(username: "ana_l")), true)
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        #expect(throws: AccountStoreError.emailTaken) { try stores.accounts.updateUser(bo.id, AccountUpdate(email: "ANA@example.com")) }
        #expect(throws: AccountStoreError.usernameTaken) { try stores.accounts.updateUser(bo.id, AccountUpdate(username: "Ana_L")) }
        #expect(throws: AccountStoreError.userNotFound) { try stores.accounts.updateUser(999, AccountUpdate(name: "X")) }
        #expect(try stores.accounts.userNamed("ANA_l")?.id == ana.id)

        // The same address in another case is no change: the account stays verified.
        let same = try stores.accounts.updateUser(ana.id, AccountUpdate(email: "Ana@Example.com", name: "Ana Lima", username: .some(nil)))
        #expect(same.isVerified)
        #expect(same.name == "Ana Lima")
        #expect(same.profile.username == nil)
        // A new address unverifies it and stores its token and email in the same transaction.
        let moved = try stores.accounts.updateUser(ana.id, AccountUpdate(email: "ana@new.example", verification: (
            Fixtures.token("v-new"), Fixtures.message(to: "ana@new.example", subject: "Confirm the new address"))))
        #expect(!moved.isVerified)
        #expect(try stores.accounts.dueMessages(Self.start, 10).map(\.draft.subject) == ["Confirm the new address"])
        #expect(try stores.accounts.verifyEmail("v-new", Self.start)?.email == "ana@new.example")
    }

    /// A changed email ends the links sent to the old address — a reset link there would let
    /// whoever still reads that mailbox take the account — and tells the old address; a new
    /// password ends the reset links; the same address in another case changes nothing.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func aNewEmailEndsTheOldAddresssLinksAndTellsIt(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let ana = try stores.account()
        let bo = try stores.account("bo@example.com", name: "Bo Berg")
        try stores.accounts.issueToken(ana.id, Fixtures.token("r-ana", .passwordReset), Fixtures.message(subject: "Reset"), nil)
        try stores.accounts.issueToken(bo.id, Fixtures.token("r-bo", .passwordReset), Fixtures.message(to: bo.email, subject: "Reset Bo"), nil)
        let notice = Fixtures.message(to: ana.email, subject: "Your email was changed")

        _ = try stores.accounts.updateUser(ana.id, AccountUpdate(email: ana.email.uppercased(), formerAddressNotice: notice))
        #expect(try stores.accounts.passwordResetUser("r-ana", Self.start)?.id == ana.id, "no change: the link works")

        _ = try stores.accounts.updateUser(ana.id, AccountUpdate(email: "ana@new.example", verification: (
            Fixtures.token("v-new"), Fixtures.message(to: "ana@new.example", subject: "Confirm the new address")),
            formerAddressNotice: notice))
        #expect(try stores.accounts.passwordResetUser("r-ana", Self.start) == nil)
        #expect(try stores.accounts.resetPassword("r-ana", "taken-over", Self.start) == nil)
        #expect(try stores.accounts.passwordResetUser("r-bo", Self.start)?.id == bo.id, "another account's link stays")
        let queued = try stores.accounts.dueMessages(Self.start, 10).map { [$0.draft.toAddress, $0.draft.subject] }
        #expect(queued == [[ana.email, "Reset"], [bo.email, "Reset Bo"], ["ana@new.example", "Confirm the new address"],
                           [ana.email, "Your email was changed"]])
        #expect(try stores.accounts.verifyEmail("v-new", Self.start)?.email == "ana@new.example")

        try stores.accounts.issueToken(ana.id, Fixtures.token("r-again", .passwordReset), Fixtures.message(), nil)
        _ = try stores.accounts.updateUser(ana.id, AccountUpdate(passwordHash: "new-hash"))
        #expect(try stores.accounts.passwordResetUser("r-again", Self.start) == nil)
    }

    /// An audited update records what differs, read in its transaction; an audited deletion
    /// what the account held; a refused deletion (the last operator) records nothing.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func anOperatorsAccountWritesAreAuditedInTheirTransaction(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let op = try stores.accounts.createUser(NewAccount(email: "op@example.com", name: "Op", passwordHash: "h",
                                                           createdAt: Self.start, role: .operator), true)
        let shopper = try stores.account()
        let actor = AuditActor(name: op.email, source: .api)
        var update = AccountUpdate(name: "Ana Souza", passwordHash: "new-hash")
        update.auditedAs = (actor, Self.start)
        _ = try stores.accounts.updateUser(shopper.id, update)
        _ = try stores.accounts.updateUser(shopper.id, AccountUpdate(name: "Ana L."))  // the holder's own: not audited
        var entries = try stores.audit.entries(AuditQuery(subject: "customer")).entries
        #expect(entries.count == 1 && entries[0].action == "update" && entries[0].actor == "op@example.com")
        #expect(entries[0].changes == [AuditChange(field: "name", before: shopper.name, after: "Ana Souza"),
                                       AuditChange(field: "password", before: nil, after: "changed")])
        #expect(throws: AccountStoreError.lastOperator) { try stores.accounts.deleteUser(op.id, (actor, Self.start)) }
        _ = try stores.accounts.deleteUser(shopper.id, (actor, Self.start))
        entries = try stores.audit.entries(AuditQuery(subject: "customer", limit: 10)).entries
        #expect(entries.map(\.action).sorted() == ["delete", "update"])
        #expect(entries.first { $0.action == "delete" }?.changes.contains(AuditChange(field: "name", before: "Ana L.", after: nil)) == true)
        // An account an operator makes at the command line is recorded with its role; one a
        // shopper registers is not.
        var made = NewAccount(email: "op2@example.com", name: "Op Two", passwordHash: "secret-hash", createdAt: Self.start, role: .operator)
        made.createdBy = .cli
        _ = try stores.accounts.createUser(made, true)
        let creation = try #require(try stores.audit.entries(AuditQuery(source: .cli, subject: "customer")).entries.first)
        #expect(creation.action == "create" && creation.subjectID == "op2@example.com")
        #expect(creation.changes.contains(AuditChange(field: "role", before: nil, after: "operator")))
        #expect(!creation.changes.contains { $0.after == "secret-hash" })
        #expect(try stores.audit.entries(AuditQuery(subject: "customer")).total == 3)
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func deletingAnAccountEndsItsSessionsAndTheLastOperatorStays(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let operator1 = try stores.accounts.createUser(NewAccount(email: "op@example.com", name: "Op", passwordHash: "h",
                                                                  createdAt: Self.start, role: .operator), true)
        let shopper = try stores.account()
        try stores.session("shopper-phone", user: shopper.id)
        #expect(try stores.accounts.deleteUser(shopper.id, nil) == shopper)
        #expect(try stores.accounts.user(shopper.id) == nil)
        #expect(try stores.sessions.find("shopper-phone") == nil)
        #expect(try stores.accounts.deleteUser(shopper.id, nil) == nil)
        #expect(throws: AccountStoreError.lastOperator) { try stores.accounts.deleteUser(operator1.id, nil) }
        #expect(try stores.accounts.user(operator1.id) == operator1)
    }

    /// Two operators deleting each other at once (a few rounds, each on a new database): a shop
    /// always keeps one.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func twoOperatorsDeletingEachOtherAtOnceLeaveOne(kind: StoreKind) throws {
        for _ in 0..<5 {
            let stores = try StoreHarness(kind, poolSize: 4)
            let accounts = stores.accounts
            let pair = try (0..<2).map { index in
                try accounts.createUser(NewAccount(email: "op\(index)@example.com", name: "Op", passwordHash: "h",
                                                   createdAt: Self.start, role: .operator), true)
            }
            let results = try ConcurrentRun.together(2) { index in
                Result { () throws -> User? in try accounts.deleteUser(pair[1 - index].id, nil) }
            }
            #expect(results.filter { (try? $0.get()) != nil }.count == 1)
            #expect(results.filter { if case let .failure(error) = $0 { (error as? AccountStoreError) == .lastOperator } else { false } }
                .count == 1)
            #expect(try accounts.users().filter { $0.role == .operator }.count == 1)
        }
    }

    /// Four deletions of one shopper at once in a shop without operators (nothing to lock them
    /// in turn): one returns the account, the others find it gone — never "the last operator"
    /// (PostgreSQL did, for a row deleted between its read and its DELETE).
    @Test(arguments: StoreKind.engines(for: .accounts))
    func deletionsOfOneShopperAtOnceReturnItOnce(kind: StoreKind) throws {
        for round in 0..<25 {
            let stores = try StoreHarness(kind, poolSize: 4)
            let accounts = stores.accounts
            let shopper = try stores.account()
            let results = try ConcurrentRun.together(4) { _ in
                Result { () throws -> User? in try accounts.deleteUser(shopper.id, nil) }
            }
            #expect(results.compactMap { try? $0.get() } == [shopper], "round \(round)")
            #expect(results.filter { if case .failure = $0 { true } else { false } }.isEmpty, "round \(round)")
        }
    }

    /// Two accounts renamed to one username at once, 20 rounds: one gets it, the other is told
    /// the name is taken — never "email taken" or a raw database error, whichever of the checks
    /// and the unique index catches the loser (PostgreSQL: the index, in a savepoint, then the
    /// same checks; no index name is read from the error).
    @Test(arguments: StoreKind.engines(for: .accounts))
    func twoRenamesToOneUsernameAtOnceLeaveOneWinner(kind: StoreKind) throws {
        for round in 0..<20 {
            let stores = try StoreHarness(kind, poolSize: 4)
            let accounts = stores.accounts
            let users = [try stores.account("ana@example.com"), try stores.account("bo@example.com")]
            let results = try ConcurrentRun.together(2) { index in
                Result { () throws -> User in try accounts.updateUser(users[index].id, AccountUpdate(username: "same_name")) }
            }
            #expect(results.compactMap { try? $0.get().profile.username } == ["same_name"], "round \(round)")
            for case let .failure(error) in results {
                #expect(error as? AccountStoreError == .usernameTaken, "round \(round): \(error)")
            }
        }
    }

    /// PostgreSQL only: an insert refused by a unique index other than the email's or username's
    /// (here the id, with the id sequence set back as a careless copy may leave it) is the
    /// database's error, not "username taken".
    @Test(.enabled(if: StoreKind.engines(for: .accounts).contains(.postgres)))
    func anInsertConflictOnAnotherKeyIsNotCalledATakenName() throws {
        let stores = try StoreHarness(.postgres)
        _ = try stores.account("ana@example.com")
        let database = try #require(stores.postgres).database
        try database.withConnection { connection in
            _ = try connection.first("SELECT setval(pg_get_serial_sequence('users', 'id'), 1, false)")
        }
        do {
            _ = try stores.account("bo@example.com")
            Issue.record("the insert went through")
        } catch let error as PostgresError {
            #expect(error.sqlState == .uniqueViolation)
        } catch {
            Issue.record("not the database's violation: \(error)")
        }
        #expect(try stores.accounts.credentials("bo@example.com") == nil)
    }

    // MARK: throttles

    private static func check(_ key: String, limit: Int = 3, window: TimeInterval = 600) -> ThrottleCheck {
        ThrottleCheck(key: key, limit: RateLimit(limit: limit, window: window))
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func attemptsAreCountedUpToTheLimitAndARefusalCountsNothing(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let account = Self.check("sign-in:email:ana@example.com")
        let client = Self.check("sign-in:ip:203.0.113.9", limit: 4)
        let times = [0.0, 10.4, 20].map { Self.start.addingTimeInterval($0) }
        for time in times { #expect(try stores.accounts.countAttempt([client, account], time) == nil) }

        // The account key is full: refused until its oldest attempt leaves the window, and the
        // client key, which had room, counted nothing either.
        let later = Self.start.addingTimeInterval(30)
        #expect(try stores.accounts.countAttempt([client, account], later) == Self.start.addingTimeInterval(600))
        #expect(try stores.accounts.countAttempt([client], later) == nil, "the refusal above counted nothing")
        #expect(try stores.accounts.countAttempt([client], later) == Self.start.addingTimeInterval(600))
        // Two refusing keys: the attempt waits for the later one.
        let slow = Self.check("sign-in:email:ana@example.com", limit: 3, window: 900)
        #expect(try stores.accounts.countAttempt([client, slow], later) == Self.start.addingTimeInterval(900))
        // Other keys are unaffected; the oldest attempt leaving the window frees one place.
        #expect(try stores.accounts.countAttempt([Self.check("sign-in:email:bo@example.com")], later) == nil)
        #expect(try stores.accounts.countAttempt([account], Self.start.addingTimeInterval(600)) == nil)
        #expect(try stores.accounts.countAttempt([account], Self.start.addingTimeInterval(600))
                == Self.start.addingTimeInterval(610), "kept to the second: 10.4 s counted as 10 s")
    }

    @Test(arguments: StoreKind.engines(for: .accounts))
    func attemptsCanBeClearedUncountedAndPurged(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let account = Self.check("sign-in:email:ana@example.com", limit: 2)
        let client = Self.check("sign-in:ip:203.0.113.9", limit: 2)
        let first = Self.start, second = Self.start.addingTimeInterval(60.7)
        for time in [first, second] { #expect(try stores.accounts.countAttempt([client, account], time) == nil) }
        #expect(try stores.accounts.countAttempt([account], second) != nil)

        try stores.accounts.clearAttempts(account.key)
        #expect(try stores.accounts.countAttempt([account], second) == nil, "cleared")
        try stores.accounts.uncountAttempt(client.key, Self.start.addingTimeInterval(60))  // the second one, to the second
        try stores.accounts.uncountAttempt(client.key, Self.start.addingTimeInterval(30))  // none then: nothing happens
        #expect(try stores.accounts.countAttempt([client], second) == nil, "one place given back")
        #expect(try stores.accounts.countAttempt([client], second) == first.addingTimeInterval(600))

        #expect(try stores.accounts.purgeAttempts(Self.start.addingTimeInterval(60)) == 1, "the client's first")
        #expect(try stores.accounts.countAttempt([client], second) == nil)
        #expect(try stores.accounts.purgeAttempts(.distantFuture) == 3)
        #expect(try stores.accounts.purgeAttempts(.distantFuture) == 0)
    }

    /// Issue #8: 60 simultaneous attempts against a limit of 5 — one thread each, released
    /// together, through a pool of 4 connections for SQLite — get exactly 5 through.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func simultaneousAttemptsNeverPassTheLimit(kind: StoreKind) throws {
        let stores = try StoreHarness(kind, poolSize: 4)
        let checks = [Self.check("sign-in:ip:203.0.113.9", limit: 50), Self.check("sign-in:email:ana@example.com", limit: 5)]
        let accounts = stores.accounts
        let results = try ConcurrentRun.together(60) { _ in try accounts.countAttempt(checks, Self.start) }
        #expect(results.count { $0 == nil } == 5)
        #expect(results.count { $0 == Self.start.addingTimeInterval(600) } == 55)
        // The client key counted the 5 admitted attempts only: a limit of 6 takes one more.
        let client = Self.check("sign-in:ip:203.0.113.9", limit: 6)
        #expect(try accounts.countAttempt([client], Self.start) == nil)
        #expect(try accounts.countAttempt([client], Self.start) != nil)
    }

    // MARK: outbox

    @Test(arguments: StoreKind.engines(for: .accounts))
    func outboxDeliversDueMessagesInOrderAndRetriesFailedOnes(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.accounts.enqueue(Fixtures.message(subject: "one", html: nil))
        try stores.accounts.enqueue(Fixtures.message(to: "bo@example.com", subject: "two"))
        try stores.accounts.enqueue(Fixtures.message(subject: "three", at: Self.start.addingTimeInterval(100)))

        let due = try stores.accounts.dueMessages(Self.start, 10)
        #expect(due.map(\.draft.subject) == ["one", "two"])
        #expect(due[0].draft.htmlBody == nil)
        #expect(due[1].draft == Fixtures.message(to: "bo@example.com", subject: "two"))
        #expect(due[0].id < due[1].id)
        #expect(try stores.accounts.dueMessages(Self.start, 1).map(\.draft.subject) == ["one"])
        #expect(try stores.accounts.dueMessages(Self.start.addingTimeInterval(100), 10).map(\.draft.subject)
                == ["one", "two", "three"])

        try stores.accounts.markSent(due[0].id, Self.start.addingTimeInterval(1))
        try stores.accounts.markFailed(due[1].id, "421 try later", Self.start.addingTimeInterval(300))
        #expect(try stores.accounts.dueMessages(Self.start.addingTimeInterval(200), 10).map(\.draft.subject) == ["three"])

        let retried = try stores.accounts.dueMessages(Self.start.addingTimeInterval(300), 10)
        #expect(retried.map(\.draft.subject) == ["two", "three"])
        #expect(retried[0].attempts == 1)
        #expect(retried[0].nextAttemptAt == Self.start.addingTimeInterval(300))

        try stores.accounts.markFailed(due[1].id, "421 still busy", Self.start.addingTimeInterval(900))
        let again = try stores.accounts.dueMessages(Self.start.addingTimeInterval(900), 10)
        #expect(again.first?.attempts == 2)
        #expect(try stores.accounts.dueMessages(Self.start.addingTimeInterval(900), 0).isEmpty)
    }

    /// Issue #15: a message taken for delivery is hidden from every other worker until it is
    /// settled or its hold ends.
    @Test(arguments: StoreKind.engines(for: .accounts))
    func aTakenMessageIsHiddenUntilSettledOrItsHoldEnds(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        for subject in ["one", "two", "three"] { try stores.accounts.enqueue(Fixtures.message(subject: subject)) }
        let hold = Self.start.addingTimeInterval(300)
        let taken = try stores.accounts.claimDueMessages(Self.start, 2, hold)
        #expect(taken.map(\.draft.subject) == ["one", "two"] && taken.allSatisfy { $0.nextAttemptAt == hold })
        #expect(try stores.accounts.claimDueMessages(Self.start, 10, hold).map(\.draft.subject) == ["three"])
        #expect(try stores.accounts.claimDueMessages(Self.start.addingTimeInterval(299), 10, hold).isEmpty)
        try stores.accounts.markSent(taken[0].id, Self.start.addingTimeInterval(1))
        try stores.accounts.markFailed(taken[1].id, "421 try later", Self.start.addingTimeInterval(60))
        // The failed one is due at its retry time; the one whose worker never settled it, after the hold.
        #expect(try stores.accounts.claimDueMessages(Self.start.addingTimeInterval(60), 10, hold.addingTimeInterval(600))
            .map(\.draft.subject) == ["two"])
        let again = try stores.accounts.claimDueMessages(hold, 10, hold.addingTimeInterval(300))
        #expect(again.map(\.draft.subject) == ["three"] && again[0].attempts == 0)
        #expect(try stores.accounts.claimDueMessages(hold, 0, hold).isEmpty)
    }

    /// Workers taking at once (four threads, small batches, on the pooled engines) never take the
    /// same message: every message is taken exactly once.
    @Test(arguments: StoreKind.engines(for: .accounts).filter { $0 != .sqlite })
    func workersTakingAtOnceTakeEachMessageOnce(kind: StoreKind) throws {
        let stores = try StoreHarness(kind, poolSize: 4)
        for index in 0..<60 { try stores.accounts.enqueue(Fixtures.message(subject: "message \(index)")) }
        let accounts = stores.accounts
        let taken = Mutex<[String]>([]), failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while true {
                do {
                    let batch = try accounts.claimDueMessages(Self.start, 3, Self.start.addingTimeInterval(300))
                    if batch.isEmpty { return }
                    taken.withLock { $0 += batch.map(\.draft.subject) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                    return
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let subjects = taken.withLock { $0 }
        #expect(subjects.count == 60 && Set(subjects).count == 60)
    }
}
