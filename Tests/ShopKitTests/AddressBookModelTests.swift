import Foundation
import ShopAPI
import ShopClient
import ShopCore
@testable import ShopKit
import ShopWeb
import Testing

/// An address book served from memory, as the server keeps it; `refuse` makes every write fail.
private func addressBook(_ saved: Box<[V1SavedAddress]>, refuse: Box<NetworkError?> = Box(nil)) -> ShopOperations {
    var shop = ShopOperations.failing
    let nextID = Box<Int64>(100)
    @Sendable func write(_ id: Int64?, _ address: V1Address, _ isDefault: Bool) throws -> V1SavedAddress {
        if let error = refuse.value { throw error }
        let row = V1SavedAddress(id: id ?? nextID.update { $0 += 1; return $0 }, address: address, isDefault: isDefault)
        saved.update { book in
            if isDefault { book = book.map { V1SavedAddress(id: $0.id, address: $0.address, isDefault: false) } }
            book.removeAll { $0.id == row.id }
            book.append(row)
        }
        return row
    }
    shop.addresses = { saved.value }
    shop.addAddress = { try write(nil, $0, $1) }
    shop.updateAddress = { try write($0, $1, $2) }
    shop.deleteAddress = { id in
        if let error = refuse.value { throw error }
        saved.update { $0.removeAll { $0.id == id } }
    }
    return shop
}

private let work = V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0199", line1: "9 Office Rd",
                             city: "Shelbyville", postalCode: "54321", country: "US")

@MainActor
@Suite("ShopKit: address book")
struct AddressBookModelTests {
    @Test func addEditMakeDefaultAndDelete() async throws {
        let saved = Box<[V1SavedAddress]>([])
        let model = AddressBookModel(shop: addressBook(saved))
        await model.load()
        #expect(model.snapshot == "[Addresses] empty")

        #expect(await model.save(AddressForm(homeAddress, isDefault: true)))
        #expect(await model.save(AddressForm(work)))
        let rows = try #require(model.state.value)
        #expect(rows.map(\.isDefault) == [true, false])
        #expect(rows[0].lines == ["Ana Lima", "1 Main St", "12345 Springfield", "United States"])

        var edited = AddressForm(rows[1].address)
        edited[.city] = "  Capital City "
        #expect(await model.save(edited, id: rows[1].id))
        #expect(model.state.value?[1].address.city == "Capital City", "saved as ShopCore's rules clean it")

        await model.makeDefault(rows[1].id)
        #expect(model.state.value?.map(\.id) == [rows[1].id, rows[0].id], "the default comes first")
        #expect(saved.value.first { $0.isDefault }?.id == rows[1].id)

        await model.delete(rows[0].id)
        #expect(model.state.value?.map(\.id) == [rows[1].id])
        #expect(saved.value.map(\.id) == [rows[1].id])
    }

    @Test func refusedChangesAreRolledBackWithTheShopsMessage() async throws {
        let saved = Box([V1SavedAddress(id: 1, address: homeAddress, isDefault: true),
                         V1SavedAddress(id: 2, address: work, isDefault: false)])
        let refuse = Box<NetworkError?>(nil)
        let model = AddressBookModel(shop: addressBook(saved, refuse: refuse))
        await model.load()
        let before = try #require(model.state.value)
        refuse.value = .serverError(status: 500, code: "internal", message: "Something went wrong.")

        await model.delete(2)
        #expect(model.state.value == before)
        #expect(model.notice == "Something went wrong.")

        await model.makeDefault(2)
        #expect(model.state.value == before)

        var edited = AddressForm(work)
        edited[.city] = "Elsewhere"
        #expect(await model.save(edited, id: 2) == false)
        #expect(model.state.value == before)

        refuse.value = .offline
        await model.delete(1)
        #expect(model.state.value == before)
        refuse.value = nil
        await model.delete(2)
        #expect(model.state.value?.map(\.id) == [1] && model.notice == nil)
    }

    @Test(arguments: Language.allCases)
    func anInvalidFormIsNotSentAndShowsTheStorefrontsMessages(language: Language) async {
        let model = AddressBookModel(shop: addressBook(Box([])), language: language)  // writes would succeed
        var form = AddressForm(homeAddress)
        form[.phone] = "call me"
        form[.countryCode] = "XX"
        form[.city] = ""
        #expect(await model.save(form) == false)
        let l10n = Localizer(language: language)
        #expect(model.fieldErrors[.phone] == [l10n.message(for: AddressProblem.invalidPhone)])
        #expect(model.fieldErrors[.countryCode] == [l10n.message(for: AddressProblem.unknownCountry)])
        #expect(model.fieldErrors[.city] == [l10n.message(for: AddressProblem.missing)])
        #expect(model.state.value == nil)
    }
}
