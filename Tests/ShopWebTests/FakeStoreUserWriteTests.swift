import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopWeb
import ShopTestSupport
import Testing

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(response.response.body))
}

private func error(_ response: TestResponse) throws -> APIErrorEnvelope.Body { try decode(APIErrorEnvelope.self, response).error }

private let newUser = """
    {"email": "John@Example.com", "username": "johnd", "password": "m38rmF$x9",
     "name": {"firstname": "John", "lastname": "Doe"},
     "address": {"city": "kilcoole", "street": "7835 new road", "number": 3, "zipcode": "12926-3874",
                 "geolocation": {"lat": "-37.3159", "long": "81.1496"}},
     "phone": "1-570-236-7033"}
    """

@Suite("Fake Store API: user writes")
struct FakeStoreUserWriteTests {
    @Test func registeringAnswers201AndTheUserSignsInAtOnceByUsernameOrEmail() throws {
        let shop = try TestShop()
        let response = try shop.api(.post, "/api/users", json: newUser)
        #expect(response.status == 201)
        let user = try decode(FakeStoreUser.self, response)
        #expect(response.header("Location") == "https://shop.test/api/users/\(user.id)")
        #expect(user == FakeStoreUser(id: user.id, email: "john@example.com", username: "johnd",
                                      name: .init(firstname: "John", lastname: "Doe"),
                                      address: .init(city: "kilcoole", street: "7835 new road", number: 3, zipcode: "12926-3874",
                                                     geolocation: .init(lat: "-37.3159", long: "81.1496")),
                                      phone: "1-570-236-7033"))
        #expect(!response.text.contains("m38rmF") && !response.text.contains("argon"), "never a password or its hash")
        let stored = try #require(try shop.accounts.user(User.ID(user.id)))
        #expect(!stored.isVerified && stored.role == .shopper)
        #expect(try shop.accounts.credentials("john@example.com")?.passwordHash.hasPrefix("$argon2id$") == true)
        // Signs in at once, with the username (any case) or the email; the verification email is queued.
        for name in ["johnd", "JohnD", "john@example.com"] {
            #expect(try shop.api(.post, "/api/auth/login", json: #"{"username": "\#(name)", "password": "m38rmF$x9"}"#).status == 200)
        }
        #expect(try shop.accounts.dueMessages(shop.clock.now, 10).contains { $0.draft.toAddress == "john@example.com" })
        let wrong = try shop.api(.post, "/api/auth/login", json: #"{"username": "johnd", "password": "nope1234x"}"#)
        #expect(try wrong.status == 401 && (error(wrong)).code == "invalid_credentials")
    }

    @Test(arguments: [
        (#"{"email": "a@example.com", "password": "Blue9sky!", "name": {"firstname": "Ana"}, "username": "a"}"#, "username"),
        (#"{"email": "a@example.com", "password": "Blue9sky!", "name": {"firstname": "Ana"}, "username": "ana@x"}"#, "username"),
        (#"{"email": "nope", "password": "Blue9sky!", "name": {"firstname": "Ana"}}"#, "email"),
        (#"{"email": "a@example.com", "password": "short1", "name": {"firstname": "Ana"}}"#, "password"),
        (#"{"email": "a@example.com", "password": "abc12345", "name": {"firstname": "Ana"}}"#, "password"),
        (#"{"email": "a@example.com", "name": {"firstname": "Ana"}}"#, "password"),
        (#"{"email": "a@example.com", "password": "Blue9sky!"}"#, "name"),
        (#"{"email": "a@example.com", "password": "Blue9sky!", "name": {"firstname": "Ana"}, "phone": "call me"}"#, "phone"),
        (#"{"email": "a@example.com", "password": "Blue9sky!", "name": {"firstname": "Ana"}, "address": {"geolocation": {"lat": "91", "long": "0"}}}"#, "address.geolocation.lat"),
        (#"{"email": "a@example.com", "password": "Blue9sky!", "name": {"firstname": "Ana"}, "address": {"number": -1}}"#, "address.number"),
    ])
    func aFieldThatBreaksARuleIs400WithTheField(body: String, field: String) throws {
        let shop = try TestShop()
        let response = try shop.api(.post, "/api/users", json: body)
        #expect(response.status == 400)
        // A required field left out is `missing_field`; one present but refused, `invalid_field`.
        let expected = body.contains("\"\(field)\":") || field.contains(".") || field == "username" || field == "phone"
            ? "invalid_field" : "missing_field"
        #expect(try error(response).code == expected && (try error(response)).field == field)
        #expect(try shop.accounts.users().isEmpty)
    }

    /// The same registration retried within a minute is answered as the first (a regression
    /// tester's retry got 409); another password is someone else: 409.
    @Test func aRetriedRegistrationIsAnsweredAsTheFirst() throws {
        let shop = try TestShop()
        let first = try decode(FakeStoreUser.self, try shop.api(.post, "/api/users", json: newUser))
        let again = try shop.api(.post, "/api/users", json: newUser)
        #expect(try again.status == 201 && decode(FakeStoreUser.self, again).id == first.id)
        let other = try shop.api(.post, "/api/users", json: newUser.replacingOccurrences(of: "m38rmF$x9", with: "Other9pass!"))
        #expect(other.status == 409)
    }

    @Test func aTakenEmailOrUsernameIs409() throws {
        let shop = try TestShop()
        _ = try shop.apiAccount("ana@example.com")
        #expect(try shop.api(.post, "/api/users", json: newUser).status == 201)
        let email = try shop.api(.post, "/api/users", json: newUser.replacingOccurrences(of: "johnd", with: "other"))
        #expect(try email.status == 409 && (error(email)).code == "email_taken")
        let username = try shop.api(.post, "/api/users", json: newUser.replacingOccurrences(of: "John@Example.com", with: "j2@example.com")
            .replacingOccurrences(of: "johnd", with: "JOHND"))
        #expect(try username.status == 409 && (error(username)).code == "username_taken" && (try error(username)).field == "username")
        #expect(try shop.api(.post, "/api/users", json: "{", headers: [:]).status == 400)
    }

    @Test func patchChangesTheFieldsSentAndPutReplacesThem() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com", name: "Ana Lima")
        let patched = try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: token,
                                   json: #"{"phone": "+55 11 5555-0101", "username": "ana_l"}"#)
        #expect(patched.status == 200)
        let user = try decode(FakeStoreUser.self, patched)
        #expect(user.phone == "+55 11 5555-0101" && user.username == "ana_l" && user.email == "ana@example.com"
                && user.name == .init(firstname: "Ana", lastname: "Lima"))
        let put = try decode(FakeStoreUser.self, try shop.api(.put, "/api/users/\(ana.id.rawValue)", token: token, json: """
            {"email": "ana@example.com", "name": {"firstname": "Ana", "lastname": "Souza"}, "address": {"city": "Recife"}}
            """))
        #expect(put.name.lastname == "Souza" && put.address.city == "Recife" && put.phone == "" && put.username == "ana@example.com",
                "PUT empties what it leaves out")
        let missing = try shop.api(.put, "/api/users/\(ana.id.rawValue)", token: token, json: #"{"name": {"firstname": "A"}}"#)
        #expect(try missing.status == 400 && (error(missing)).field == "email")
    }

    /// A PATCH of part of the address merges it into the stored one, as the top-level fields
    /// do; it emptied the street, number, zip code and geolocation (a fresh tester). A PUT
    /// still replaces the address whole.
    @Test func patchingPartOfTheAddressKeepsTheRest() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com", name: "Ana Lima")
        let path = "/api/users/\(ana.id.rawValue)"
        _ = try shop.api(.patch, path, token: token, json: """
            {"address": {"city": "Springfield", "street": "Evergreen Terrace", "number": 742, "zipcode": "49007",
                         "geolocation": {"lat": "42.1", "long": "-85.6"}}}
            """)
        let moved = try decode(FakeStoreUser.self, try shop.api(.patch, path, token: token,
                                                                json: #"{"address": {"city": "Shelbyville"}}"#))
        #expect(moved.address == .init(city: "Shelbyville", street: "Evergreen Terrace", number: 742, zipcode: "49007",
                                       geolocation: .init(lat: "42.1", long: "-85.6")))
        let renumbered = try decode(FakeStoreUser.self, try shop.api(.patch, path, token: token,
                                                                     json: #"{"address": {"number": 744, "street": ""}}"#))
        #expect(renumbered.address.number == 744 && renumbered.address.street == "" && renumbered.address.city == "Shelbyville",
                "a part sent empty is emptied")
        let replaced = try decode(FakeStoreUser.self, try shop.api(.put, path, token: token, json: """
            {"email": "ana@example.com", "name": {"firstname": "Ana", "lastname": "Lima"}, "address": {"city": "Recife"}}
            """))
        #expect(replaced.address == .init(city: "Recife", street: "", number: 0, zipcode: "", geolocation: .init()))
        // The geolocation is one part: both halves, and the missing one named by its whole path.
        let half = try shop.api(.patch, path, token: token, json: #"{"address": {"geolocation": {"lat": "41"}}}"#)
        #expect(try half.status == 400 && error(half).code == "missing_field" && error(half).field == "address.geolocation.long")
    }

    @Test func aNewPasswordIsHashedByTheWebRulesAndEndsOtherSessions() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com", name: "Ana Lima")
        let other = try shop.apiToken("ana@example.com")
        let weak = try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: token, json: #"{"password": "lima12345x"}"#)
        #expect(try weak.status == 400 && (error(weak)).field == "password", "contains the name")
        #expect(try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: token, json: #"{"password": "Green7tree!"}"#).status == 200)
        #expect(try shop.accounts.credentials("ana@example.com")?.passwordHash.hasPrefix("$argon2id$") == true)
        #expect(try shop.api(.get, "/api/users", token: token).status == 200, "the session making the change stays")
        #expect(try shop.api(.get, "/api/users", token: other).status == 401, "other sessions end")
        #expect(try shop.apiToken("ana@example.com", password: "Green7tree!").count > 0)
    }

    @Test func aNewEmailMakesTheAccountUnverified() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com")
        let changed = try decode(FakeStoreUser.self, try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: token,
                                                                  json: #"{"email": "ana.lima@example.com"}"#))
        #expect(changed.email == "ana.lima@example.com")
        #expect(try shop.accounts.user(ana.id)?.isVerified == false)
        #expect(try shop.accounts.dueMessages(shop.clock.now, 10).contains { $0.draft.toAddress == "ana.lima@example.com" })
    }

    /// A reset link sent to the old address must not hand the account to whoever still reads
    /// that mailbox; the old address is told, in the account's language.
    @Test func aNewEmailEndsTheResetLinksOfTheOldAddressAndTellsIt() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com")
        _ = try shop.accounts.updateUser(ana.id, AccountUpdate(locale: .turkish))
        try shop.post("/account/password/forgot", [("email", "ana@example.com")])
        let link = try #require(try shop.lastEmailedPath())
        let resetToken = String(link.split(separator: "=", maxSplits: 1)[1])

        #expect(try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: token,
                             json: #"{"email": "ana.new@example.com"}"#).status == 200)
        #expect(try shop.get(link).status == 410)
        let reset = try shop.post("/account/password/reset", [("token", resetToken), ("password", "Hijack9pass"),
                                                              ("password_confirmation", "Hijack9pass")])
        #expect(reset.status == 410)
        #expect(try shop.apiToken("ana.new@example.com").count > 0, "the password is the owner's still")
        let notice = try #require(try shop.accounts.dueMessages(shop.clock.now, 10).last)
        #expect(notice.draft.toAddress == "ana@example.com")
        #expect(notice.draft.subject.contains("e-posta adresiniz değiştirildi"))
        #expect(notice.draft.textBody.contains("ana.new@example.com"))
    }

    @Test func anotherShoppersAccountIs404AndAnOperatorMayWriteAny() throws {
        let shop = try TestShop()
        let (_, opToken) = try shop.apiAccount("op@example.com", role: .operator)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com")
        let (bea, _) = try shop.apiAccount("bea@example.com", name: "Bea Souza")
        for method in [HTTPMethod.put, .patch, .delete] {
            let response = try shop.api(method, "/api/users/\(bea.id.rawValue)", token: anaToken,
                                        json: #"{"email": "x@example.com", "name": {"firstname": "X"}}"#)
            #expect(try response.status == 404 && (error(response)).code == "not_found", "\(method)")
            #expect(try shop.api(method, "/api/users/\(ana.id.rawValue)", token: nil, json: "{}").status == 401)
            #expect(try shop.api(method, "/api/users/abc", token: anaToken, json: "{}").status == 400)
        }
        #expect(try shop.accounts.user(bea.id)?.email == "bea@example.com")
        #expect(try decode(FakeStoreUser.self, try shop.api(.patch, "/api/users/\(bea.id.rawValue)", token: opToken,
                                                            json: #"{"phone": "123"}"#)).phone == "123")
    }

    /// An operator's change of someone else's account is audited as theirs, field by field (a
    /// password as "changed", never its hash); a shopper's change of their own is not.
    @Test func anOperatorsWritesOfOtherAccountsAreAudited() throws {
        let shop = try TestShop()
        let (_, opToken) = try shop.apiAccount("op@example.com", role: .operator)
        let (ana, anaToken) = try shop.apiAccount("ana@example.com")
        let (bea, _) = try shop.apiAccount("bea@example.com", name: "Bea Souza")
        let audit = try #require(shop.environment.audit)
        #expect(try shop.api(.patch, "/api/users/\(ana.id.rawValue)", token: anaToken, json: #"{"phone": "555"}"#).status == 200)
        #expect(try audit.entries(AuditQuery(subject: "customer")).total == 0, "a shopper's own change")
        #expect(try shop.api(.patch, "/api/users/\(bea.id.rawValue)", token: opToken,
                             json: #"{"phone": "123", "password": "Longer-pass-9"}"#).status == 200)
        let update = try #require(try audit.entries(AuditQuery(subject: "customer")).entries.first)
        #expect(update.actor == "op@example.com" && update.source == .api && update.action == "update" && update.subjectID == "bea@example.com")
        #expect(update.changes == [AuditChange(field: "phone", before: "", after: "123"),
                                   AuditChange(field: "password", before: nil, after: "changed")])
        let hash = try #require(try shop.accounts.credentials("bea@example.com")).passwordHash
        #expect(!update.changes.contains { $0.after == hash })
        let owner = try StaffBrowser(shop, role: .owner)
        owner.browser.cookies["shoppable_lang"] = "tr"
        let page = try owner.get("/admin/audit?subject=customer").text
        #expect(page.contains("Şifre</strong>: yok → değiştirildi") && !page.contains(hash), "the page in Turkish, no hash")
        #expect(try shop.api(.delete, "/api/users/\(bea.id.rawValue)", token: opToken).status == 200)
        let deletion = try #require(try audit.entries(AuditQuery(subject: "customer")).entries.first)
        #expect(deletion.action == "delete" && deletion.changes.contains(AuditChange(field: "name", before: "Bea Souza", after: nil)))
    }

    @Test func deletingAnAccountEndsItsTokensAndFreesItsEmail() throws {
        let shop = try TestShop()
        let (ana, token) = try shop.apiAccount("ana@example.com")
        let response = try shop.api(.delete, "/api/users/\(ana.id.rawValue)", token: token)
        #expect(try response.status == 200 && (decode(FakeStoreUser.self, response)).email == "ana@example.com")
        #expect(try shop.accounts.user(ana.id) == nil)
        #expect(try shop.api(.get, "/api/users", token: token).status == 401)
        // The email is free again.
        #expect(try shop.api(.post, "/api/users", json: newUser.replacingOccurrences(of: "John@Example.com", with: "ana@example.com"))
                .status == 201)
    }

    /// A shop keeps an operator: the last one's account is 409 `last_operator`; once there is
    /// another, it may go.
    @Test func theLastOperatorsAccountIs409() throws {
        let shop = try TestShop()
        let (op, opToken) = try shop.apiAccount("op@example.com", role: .operator)
        let refused = try shop.api(.delete, "/api/users/\(op.id.rawValue)", token: opToken)
        #expect(try refused.status == 409 && (error(refused)).code == "last_operator")
        #expect(try shop.accounts.user(op.id) != nil)
        _ = try shop.apiAccount("second@example.com", role: .operator)
        #expect(try shop.api(.delete, "/api/users/\(op.id.rawValue)", token: opToken).status == 200)
    }
}
