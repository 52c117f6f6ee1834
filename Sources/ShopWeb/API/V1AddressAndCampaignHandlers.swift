import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// `/api/v1` campaigns (the campaigns pages' schedule and product query) and the address book
/// (`AddressStore` with the address form's rules, `AddressRules`).
extension V1Handlers {
    // MARK: Campaigns

    static func campaignJSON(_ campaign: Campaign, products: [Product]?, _ context: RequestContext) -> V1Campaign {
        let discount = switch campaign.discount {
        case let .percentage(percent): V1CampaignDiscount(kind: "percentage", percent: percent)
        case let .fixedAmount(amount): V1CampaignDiscount(kind: "fixed_amount", amount: money(amount, context))
        }
        let (appliesTo, category, handles): (String, String?, [String]?) = switch campaign.target {
        case .wholeCart: ("cart", nil, nil)
        case let .category(handle): ("category", handle, nil)
        case let .products(handles): ("products", nil, handles)
        }
        return V1Campaign(handle: campaign.id.rawValue, title: campaign.title.text(in: context.l10n.language),
                          description: campaign.description.text(in: context.l10n.language),
                          image: campaign.imageURL.map { FakeStoreHandlers.absolute($0, context) },
                          startsAt: campaign.startsAt, endsAt: campaign.endsAt, discount: discount,
                          voucherCode: campaign.voucherCode?.normalized, appliesTo: appliesTo, category: category,
                          productHandles: handles, minimumSubtotal: campaign.minimumSubtotal.map { money($0, context) },
                          products: products?.map { summary($0, context) })
    }

    /// `GET /api/v1/campaigns`: the running campaigns, as the campaigns page lists them.
    static func campaigns(_ context: inout RequestContext) throws -> Response {
        let active = try context.campaignSchedule().active
        let answer = V1Campaigns(campaigns: active.map { campaignJSON($0, products: nil, context) })
        return try FakeStoreHandlers.catalogRead(answer, context)
    }

    /// `GET /api/v1/campaigns/{handle}`: one running campaign with the products its page shows.
    static func campaign(_ handle: String, _ context: inout RequestContext) throws -> Response {
        guard let campaign = try context.campaignSchedule().active.first(where: { $0.id.rawValue == handle }) else {
            throw APIError.notFound(.apiNoCampaign, ["campaign": handle])
        }
        let products = try ShopApp.campaignProducts(campaign, context.environment)
        return try FakeStoreHandlers.catalogRead(campaignJSON(campaign, products: products, context), context)
    }

    // MARK: Address book

    static func savedAddressJSON(_ address: Address) -> V1SavedAddress {
        V1SavedAddress(id: address.id?.rawValue ?? 0, address: addressJSON(address), isDefault: address.isDefault)
    }

    /// The signed-in account and the address store (404 on a shop without one).
    private static func addressBook(_ context: RequestContext) throws -> (User, AddressStore) {
        let user = try APIApp.account(context)
        guard let store = context.environment.addresses else { throw APIError.notFound(.apiNoAddressBook) }
        return (user, store)
    }

    private static var addressNotFound: APIError {
        APIError(status: .notFound, code: "address_not_found", .apiNoSavedAddress, field: "id")
    }

    /// `GET /api/v1/addresses`: by name, as the address book page lists them.
    static func addresses(_ context: RequestContext) throws -> Response {
        let (user, store) = try addressBook(context)
        let book = try store.list(user.id).sorted(by: Address.bookOrder)
        return try APIApp.json(V1AddressBook(addresses: book.map(savedAddressJSON)))
    }

    /// `POST /api/v1/addresses` (id nil: 201 with `Location`) and `PUT /api/v1/addresses/{id}`:
    /// the address form's rules; the update is conditional on the address being the account's
    /// (`AddressStore.save`), so another shopper's id is 404.
    static func saveAddress(_ id: FakeStoreID?, _ context: RequestContext) throws -> Response {
        let (user, store) = try addressBook(context)
        if let id, id.value == nil { throw APIError.malformedID(id, "address") }
        let addressID = id?.value.map { Address.ID(rawValue: $0) }
        // Another shopper's id is 404 whatever the body holds (the body's problems would say it
        // exists); the save below stays conditional, for an address deleted meanwhile.
        if let addressID, try store.address(user.id, addressID) == nil { throw addressNotFound }
        let body = try APIApp.body(V1AddressInput.self, of: context.request)
        let address: Address
        switch validateAddress(body.address, isDefault: body.isDefault ?? false, id: addressID, context) {
        case let .success(valid): address = valid
        case let .failure(refused):
            let first = refused.problems[0]
            throw APIError(status: .badRequest, checkout: V1CheckoutError(
                error: .init(code: "invalid_address", message: first.message, field: first.field), problems: refused.problems))
        }
        let saved: Address
        do { saved = try store.save(user.id, address) } catch AddressStoreError.addressNotFound { throw addressNotFound }
        guard addressID == nil, let newID = saved.id else { return try APIApp.json(savedAddressJSON(saved)) }
        let location = APIRoute.v1(.updateAddress(FakeStoreID(newID.rawValue))).request.url
        return try APIApp.json(savedAddressJSON(saved), status: .created,
                               headers: ["Location": context.environment.publicURL + location])
    }

    /// `DELETE /api/v1/addresses/{id}`: 204; another shopper's id, like an unknown one, is 404.
    static func deleteAddress(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let (user, store) = try addressBook(context)
        guard let value = id.value else { throw APIError.malformedID(id, "address") }
        guard try store.address(user.id, Address.ID(rawValue: value)) != nil else { throw addressNotFound }
        try store.delete(user.id, Address.ID(rawValue: value))
        return noContent
    }
}
