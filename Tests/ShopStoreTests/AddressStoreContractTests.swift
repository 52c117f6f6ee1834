import Foundation
import Synchronization
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Testing

@Suite struct AddressStoreContractTests {
    static func address(_ first: String, isDefault: Bool = false, city: String = "İstanbul") -> Address {
        Address(firstName: first, lastName: "Lima", phone: "+90 555 000 00 00", email: "\(first.lowercased())@example.com",
                line1: "Bağdat Cd. 1", line2: "Daire 4", city: city, postalCode: "034728", region: "Kadıköy",
                countryCode: "TR", isDefault: isDefault)
    }

    @Test(arguments: StoreKind.engines(for: .addresses))
    func addressesAreCreatedReadUpdatedAndDeleted(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.accounts.createUser(Fixtures.newAccount(), true)
        #expect(try stores.addresses.list(user.id).isEmpty)

        let home = try stores.addresses.save(user.id, Self.address("Ana"))
        let homeID = try #require(home.id)
        var expected = Self.address("Ana")
        expected.id = homeID
        #expect(home == expected)
        #expect(try stores.addresses.address(user.id, homeID) == home)

        var plain = Self.address("Bea")
        plain.email = nil
        plain.region = nil
        plain.line2 = ""
        let work = try stores.addresses.save(user.id, plain)
        #expect(work.id != homeID)
        #expect(try stores.addresses.list(user.id) == [home, work])
        #expect(try stores.addresses.address(user.id, work.id!)?.region == nil)

        var moved = home
        moved.city = "Ankara"
        moved.postalCode = "06000"
        #expect(try stores.addresses.save(user.id, moved) == moved)
        #expect(try stores.addresses.address(user.id, homeID) == moved)

        try stores.addresses.delete(user.id, homeID)
        #expect(try stores.addresses.address(user.id, homeID) == nil)
        #expect(try stores.addresses.list(user.id) == [work])
        // Ids are never reused.
        let again = try stores.addresses.save(user.id, Self.address("Cem"))
        #expect(again.id!.rawValue > work.id!.rawValue)
    }

    @Test(arguments: StoreKind.engines(for: .addresses))
    func anAccountHasAtMostOneDefaultAddress(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.accounts.createUser(Fixtures.newAccount(), true)
        let other = try stores.accounts.createUser(Fixtures.newAccount("bob@example.com"), true)
        let othersDefault = try stores.addresses.save(other.id, Self.address("Bob", isDefault: true))

        let first = try stores.addresses.save(user.id, Self.address("Ana", isDefault: true))
        let second = try stores.addresses.save(user.id, Self.address("Bea", isDefault: true))
        #expect(try stores.addresses.list(user.id).filter(\.isDefault).map(\.id) == [second.id])

        var firstAgain = first
        firstAgain.isDefault = true
        firstAgain.city = "İzmir"
        _ = try stores.addresses.save(user.id, firstAgain)
        #expect(try stores.addresses.list(user.id).filter(\.isDefault).map(\.id) == [first.id])
        #expect(try stores.addresses.address(user.id, first.id!)?.city == "İzmir")

        var notDefault = firstAgain
        notDefault.isDefault = false
        _ = try stores.addresses.save(user.id, notDefault)
        #expect(try stores.addresses.list(user.id).filter(\.isDefault).isEmpty)
        #expect(try stores.addresses.list(other.id) == [othersDefault])
    }

    @Test(arguments: StoreKind.engines(for: .addresses))
    func anotherAccountsAddressIsInvisibleAndUntouchable(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let ana = try stores.accounts.createUser(Fixtures.newAccount(), true)
        let bob = try stores.accounts.createUser(Fixtures.newAccount("bob@example.com"), true)
        let anas = try stores.addresses.save(ana.id, Self.address("Ana", isDefault: true))
        let bobs = try stores.addresses.save(bob.id, Self.address("Bob", isDefault: true))

        #expect(try stores.addresses.address(bob.id, anas.id!) == nil)
        #expect(try stores.addresses.list(bob.id) == [bobs])
        try stores.addresses.delete(bob.id, anas.id!)
        #expect(try stores.addresses.address(ana.id, anas.id!) == anas)

        // Bob cannot overwrite Ana's address through its id, and his own default stays.
        var hijack = anas
        hijack.city = "Elsewhere"
        #expect(throws: AddressStoreError.addressNotFound) { try stores.addresses.save(bob.id, hijack) }
        #expect(try stores.addresses.address(ana.id, anas.id!) == anas)
        #expect(try stores.addresses.address(bob.id, bobs.id!)?.isDefault == true)
    }

    @Test(arguments: StoreKind.engines(for: .addresses))
    func savingForAnUnknownAccountFails(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        #expect(throws: AccountStoreError.userNotFound) { try stores.addresses.save(User.ID(42), Self.address("Ana")) }
    }

    /// Threads saving default addresses for one account at once (200 saves), on every engine: every save
    /// succeeds and exactly one default is left (on PostgreSQL the account's row is locked
    /// first; without it two saves collide on the one-default index).
    @Test(arguments: StoreKind.engines(for: .addresses).filter { $0 != .sqlite })
    func defaultsSavedAtOnceLeaveExactlyOne(kind: StoreKind) throws {
        let stores = try StoreHarness(kind, poolSize: 4)
        let user = try stores.accounts.createUser(Fixtures.newAccount(), true)
        let existing = try stores.addresses.save(user.id, Self.address("Ana", isDefault: true))
        let failures = Mutex<[String]>([])
        let addresses = stores.addresses
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            do {
                if index % 4 == 0 {
                    var again = existing
                    again.city = "City \(index)"
                    _ = try addresses.save(user.id, again)
                } else {
                    _ = try addresses.save(user.id, Self.address("Person\(index)", isDefault: true))
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let book = try stores.addresses.list(user.id)
        #expect(book.count == 151 && book.filter(\.isDefault).count == 1)
    }
}
