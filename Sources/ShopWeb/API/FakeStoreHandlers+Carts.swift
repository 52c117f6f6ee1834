import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopService
import ShopStore

// MARK: - Carts (saved carts: dated product lists of one account)

extension FakeStoreHandlers {
    /// `GET /api/carts` (every cart for an operator, the caller's for a shopper) and
    /// `GET /api/carts/user/{userId}` (404 for another shopper's id, as for an unknown one).
    static func carts(_ userID: FakeStoreID?, _ query: FakeStoreCartQuery, _ context: RequestContext) throws -> Response {
        let viewer = try APIApp.account(context)
        let service = try savedCarts(context)
        let filter = SavedCartQuery(start: try date(query.startDate, field: "startdate"),
                                   end: try date(query.endDate, field: "enddate"),
                                   descending: query.list.sort == .desc, limit: query.list.limit)
        let carts = try cartCall {
            if let userID {
                guard let value = userID.value else { throw APIError.malformedID(userID, "user") }
                return try service.carts(ofUser: User.ID(value), filter, visibleTo: viewer)
            }
            return try service.carts(filter, visibleTo: viewer)
        }
        return try APIApp.json(carts.map(shape))
    }

    /// `GET /api/carts/{id}`.
    static func cart(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let viewer = try APIApp.account(context)
        let service = try savedCarts(context)
        guard let value = id.value else { throw APIError.malformedID(id, "cart") }
        return try APIApp.json(shape(try cartCall { try service.cart(SavedCart.ID(value), visibleTo: viewer) }))
    }

    /// `POST /api/carts`: 201 with `Location`.
    static func createCart(_ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        let service = try savedCarts(context)
        let body = try APIApp.body(FakeStoreCartInput.self, of: context.request)
        let created = try cartCall { try service.create(try fields(body), by: account) }
        let location = APIRoute.fakeStore(.cart(FakeStoreID(created.id.rawValue))).request.url
        return try APIApp.json(shape(created), status: .created, headers: ["Location": context.environment.publicURL + location])
    }

    /// `PUT` (replacing) and `PATCH /api/carts/{id}`.
    static func updateCart(_ id: FakeStoreID, replacing: Bool, _ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        let service = try savedCarts(context)
        guard let value = id.value else { throw APIError.malformedID(id, "cart") }
        let body = try APIApp.body(FakeStoreCartInput.self, of: context.request)
        return try APIApp.json(shape(try cartCall {
            try service.update(SavedCart.ID(value), try fields(body), replacing: replacing, by: account)
        }))
    }

    /// `DELETE /api/carts/{id}`: answers the cart as it was.
    static func deleteCart(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        let service = try savedCarts(context)
        guard let value = id.value else { throw APIError.malformedID(id, "cart") }
        return try APIApp.json(shape(try cartCall { try service.delete(SavedCart.ID(value), by: account) }))
    }

    static func shape(_ cart: SavedCart) -> FakeStoreCart {
        FakeStoreCart(id: cart.id.rawValue, userId: cart.userID.rawValue, date: FakeStoreDate.format(cart.date),
                      products: cart.lines.map { .init(productId: $0.productID.rawValue, quantity: $0.quantity) })
    }

    private static func savedCarts(_ context: RequestContext) throws -> SavedCartService {
        guard let service = context.environment.savedCartService else { throw APIError.notFound(.apiNoAPICarts) }
        return service
    }

    private static func fields(_ body: FakeStoreCartInput) throws -> SavedCartService.Fields {
        SavedCartService.Fields(
            userID: body.userId.map { User.ID($0) }, date: try date(body.date, field: "date"),
            lines: body.products?.map { SavedCart.Line(productID: Product.ID($0.productId), quantity: $0.quantity) })
    }

    /// An ISO 8601 date as sent, or nil when none was. - Throws: 400 `malformed_date`.
    private static func date(_ text: String?, field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = FakeStoreDate.parse(text) else {
            throw APIError(status: .badRequest, code: "malformed_date", .apiMalformedDate, ["text": text], field: field)
        }
        return date
    }

    /// Runs a cart call, its refusals as the error envelope.
    private static func cartCall<T>(_ call: () throws -> T) throws -> T {
        do {
            return try call()
        } catch SavedCartError.notFound {
            throw APIError.notFound(.apiNoSuchCart)
        } catch let SavedCartError.invalid(field, message) {
            throw APIError(status: .badRequest, code: "invalid_field", message: message, field: field)
        }
    }
}
