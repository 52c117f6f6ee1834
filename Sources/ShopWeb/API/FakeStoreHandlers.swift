import Foundation
import HTTPServer
import Routing
import ShopAPI
import ShopCore
import ShopService
import ShopStore

/// The Fake Store compatible routes under `/api` (issue #10, point 1): same paths and shapes,
/// Shoppable's data. Differences from fakestoreapi.com are in `docs/API.md`.
enum FakeStoreHandlers {
    static func handle(_ route: FakeStoreRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case let .products(query): return try products(nil, query, context)
        case let .category(name, query): return try products(name, query, context)
        case let .product(id): return try product(id, context)
        case .categories:
            let names = try context.environment.catalog.categories().map(\.category.name)
            return try catalogRead(names, context)
        case .login: return try login(&context)
        case .createProduct: return try createProduct(context)
        case let .replaceProduct(id): return try updateProduct(id, replacing: true, context)
        case let .updateProduct(id): return try updateProduct(id, replacing: false, context)
        case let .deleteProduct(id): return try deleteProduct(id, context)
        case let .users(query): return try users(query, context)
        case let .user(id): return try user(id, context)
        }
    }

    /// Every published product (of the category named `category`, when given), by id.
    static func products(_ category: String?, _ query: FakeStoreListQuery, _ context: RequestContext) throws -> Response {
        let catalog = context.environment.catalog
        let categories = try catalog.categories().map(\.category)
        var filter: Category.ID?
        if let category {
            // Exact name, as Fake Store matches it; an unknown one is an empty list there and here.
            guard let found = categories.first(where: { $0.name == category }) else { return try catalogRead([FakeStoreProduct](), context) }
            filter = found.id
        }
        var products = try catalog.products(ProductQuery(categoryID: filter, sort: .featured, limit: Int.max)).products
        products.sort { $0.id.rawValue < $1.id.rawValue }
        if query.sort == .desc { products.reverse() }
        if let limit = query.limit { products = Array(products.prefix(limit)) }
        let names = Dictionary(categories.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try catalogRead(products.map { shape($0, names, context) }, context)
    }

    static func product(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        guard let value = id.value else { throw APIError.malformedID(id, "product") }
        guard let product = try context.environment.catalog.productsByID([Product.ID(rawValue: value)])[Product.ID(rawValue: value)] else {
            throw APIError.notFound("There is no product \(value).")
        }
        let names = Dictionary(try context.environment.catalog.categories().map { ($0.category.id, $0.category.name) },
                               uniquingKeysWith: { first, _ in first })
        return try catalogRead(shape(product, names, context), context)
    }

    /// A product in Fake Store's shape: price of its first variant in major units, plain-text
    /// description, category name, absolute image URL, rating.
    static func shape(_ product: Product, _ categoryNames: [Category.ID: String], _ context: RequestContext) -> FakeStoreProduct {
        let price = product.defaultVariant?.price ?? product.variants[0].price
        let image = product.images.first.map { absolute($0.url, context) } ?? ""
        return FakeStoreProduct(
            id: product.id.rawValue, title: product.title, price: price.majorUnits,
            description: product.descriptionText, category: product.categoryID.flatMap { categoryNames[$0] } ?? "",
            image: image,
            rating: .init(rate: Double(product.rating?.rateHundredths ?? 0) / 100, count: product.rating?.count ?? 0),
            handle: product.handle, currency: price.currency.code)
    }

    /// `url` as an absolute URL: site paths are prefixed with the shop's public URL.
    static func absolute(_ url: String, _ context: RequestContext) -> String {
        url.hasPrefix("/") && !url.hasPrefix("//") ? context.environment.publicURL + url : url
    }

    /// A catalog read: cacheable for a minute (the catalog changes rarely; clients revalidate).
    static func catalogRead(_ value: some Encodable, _ context: RequestContext) throws -> Response {
        try APIApp.json(value, headers: ["Cache-Control": "public, max-age=60"])
    }

    /// `POST /api/auth/login`: the account's email (or `username`) and password → a bearer token,
    /// throttled like the sign-in form.
    static func login(_ context: inout RequestContext) throws -> Response {
        let body = try APIApp.body(FakeStoreLogin.self, of: context.request)
        let environment = context.environment
        let user: User
        switch try environment.accountService.signIn(emailText: body.username, password: body.password,
                                                     client: context.clientAddress, throttles: environment.throttles) {
        case let .throttled(seconds):
            var error = APIError(status: .tooManyRequests, code: "too_many_attempts",
                                 message: Throttled(retryAfterSeconds: seconds, l10n: context.l10n).message)
            error.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
            throw error
        case .refused:
            throw APIError(status: .unauthorized, code: "invalid_credentials", message: "The username or password is wrong.")
        case let .accepted(accepted):
            user = accepted
        }
        // Signing in with a guest token (`POST /api/v1/sessions/guest`) merges the guest's cart and
        // favorites into the account's, exactly as the sign-in form does with the guest cookie.
        let guest = (try? APIApp.bearerSession(context))?.session
        let signedIn = try context.sessionService.signIn(user.id, replacing: guest?.userID == nil ? guest : nil, remember: true)
        return try APIApp.json(FakeStoreToken(token: signedIn.issued.token))
    }
}

// MARK: - Product writes (operators)

extension FakeStoreHandlers {
    /// `POST /api/products`: 201, `Location` of the new product, the product.
    static func createProduct(_ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        let body = try APIApp.body(FakeStoreProductInput.self, of: context.request)
        let created = try productWrite { try context.environment.catalogAdmin.create(fields(body), by: account) }
        let location = APIRoute.fakeStore(.product(FakeStoreID(created.product.id.rawValue))).request.url
        return try APIApp.json(written(created, context), status: .created,
                               headers: ["Location": context.environment.publicURL + location])
    }

    /// `PUT` (replacing) and `PATCH /api/products/{id}`.
    static func updateProduct(_ id: FakeStoreID, replacing: Bool, _ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        guard let value = id.value else { throw APIError.malformedID(id, "product") }
        let body = try APIApp.body(FakeStoreProductInput.self, of: context.request)
        let changed = try productWrite {
            try context.environment.catalogAdmin.update(Product.ID(value), fields(body), replacing: replacing, by: account)
        }
        return try APIApp.json(written(changed, context))
    }

    /// `DELETE /api/products/{id}`: unpublishes it and answers it, as Fake Store does.
    static func deleteProduct(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let account = try APIApp.account(context)
        guard let value = id.value else { throw APIError.malformedID(id, "product") }
        let deleted = try productWrite { try context.environment.catalogAdmin.delete(Product.ID(value), by: account) }
        return try APIApp.json(written(deleted, context))
    }

    private static func fields(_ body: FakeStoreProductInput) -> CatalogAdminService.ProductFields {
        .init(title: body.title, price: body.price, description: body.description, category: body.category, image: body.image)
    }

    private static func written(_ stored: StoredProduct, _ context: RequestContext) -> FakeStoreProduct {
        let names = stored.product.categoryID.map { [$0: stored.categoryName ?? ""] } ?? [:]
        return shape(stored.product, names, context)
    }

    /// Runs a product write, its refusals as the error envelope.
    private static func productWrite(_ write: () throws -> StoredProduct) throws -> StoredProduct {
        do {
            return try write()
        } catch CatalogAdminError.notFound {
            throw APIError.notFound("There is no such product.")
        } catch let CatalogAdminError.invalid(field, message) {
            throw APIError(status: .badRequest, code: field == nil ? "invalid_product" : "invalid_field", message: message,
                           field: field)
        }
    }
}

// MARK: - Users

extension FakeStoreHandlers {
    /// `GET /api/users`: every account for an operator, the caller's own for anyone else.
    static func users(_ query: FakeStoreListQuery, _ context: RequestContext) throws -> Response {
        let viewer = try APIApp.account(context)
        var users = try context.environment.accountService.users(visibleTo: viewer).sorted { $0.id.rawValue < $1.id.rawValue }
        if query.sort == .desc { users.reverse() }
        if let limit = query.limit { users = Array(users.prefix(limit)) }
        return try APIApp.json(users.map(shape))
    }

    /// `GET /api/users/{id}`: 404 for another shopper's id as for an unknown one.
    static func user(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let viewer = try APIApp.account(context)
        guard let value = id.value else { throw APIError.malformedID(id, "user") }
        do {
            return try APIApp.json(shape(try context.environment.accountService.user(User.ID(value), visibleTo: viewer)))
        } catch AccountServiceError.accountNotFound {
            throw APIError.notFound("There is no user \(value).")
        }
    }

    /// An account in Fake Store's shape: the email is the username; the name splits at its first
    /// space; address and phone are empty (Shoppable keeps addresses in the address book).
    static func shape(_ user: User) -> FakeStoreUser {
        let words = user.name.split(separator: " ", maxSplits: 1).map(String.init)
        return FakeStoreUser(id: user.id.rawValue, email: user.email, username: user.email,
                             name: .init(firstname: words.first ?? "", lastname: words.count > 1 ? words[1] : ""))
    }
}
