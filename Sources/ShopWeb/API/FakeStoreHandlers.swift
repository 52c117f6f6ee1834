import Foundation
import HTTPServer
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
        case .createUser: return try createUser(context)
        case let .replaceUser(id): return try updateUser(id, replacing: true, context)
        case let .updateUser(id): return try updateUser(id, replacing: false, context)
        case let .deleteUser(id): return try deleteUser(id, context)
        case let .carts(query): return try carts(nil, query, context)
        case let .userCarts(userID, query): return try carts(userID, query, context)
        case let .cart(id): return try cart(id, context)
        case .createCart: return try createCart(context)
        case let .replaceCart(id): return try updateCart(id, replacing: true, context)
        case let .updateCart(id): return try updateCart(id, replacing: false, context)
        case let .deleteCart(id): return try deleteCart(id, context)
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
            throw APIError.notFound(.apiNoProduct, ["product": "\(value)"])
        }
        let names = Dictionary(try context.environment.catalog.categories().map { ($0.category.id, $0.category.name) },
                               uniquingKeysWith: { first, _ in first })
        return try catalogRead(shape(product, names, context), context)
    }

    /// A product in Fake Store's shape: price of its first variant in major units, plain-text
    /// description, category name, absolute image URL, rating.
    static func shape(_ product: Product, _ categoryNames: [Category.ID: String], _ context: RequestContext) -> FakeStoreProduct {
        let price = product.defaultVariant?.price ?? product.variants[0].price
        // A stored image's 1280-pixel JPEG/PNG copy, not its original (up to 32 MiB).
        let image = product.images.first.map { absolute(ImageRenditions.singleURL(of: $0), context) } ?? ""
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

    /// A catalog read: any cache may keep it, and asks again each time (`no-cache`), with the
    /// `ETag`, so an unchanged answer is a `304` from the page cache. Not `max-age=60`: answers
    /// carry stock net of checkouts' holds, which a hold taken or ending changes at once (a fresh
    /// tester saw a product stay sold out in clients for a minute after its hold ended).
    /// `Vary: Accept-Language`: the answer is in the asked language (formatted prices, messages),
    /// so a shared cache must not hand a Turkish answer to an English client.
    static func catalogRead(_ value: some Encodable, _ context: RequestContext) throws -> Response {
        try APIApp.json(value, headers: ["Cache-Control": Self.catalogCacheControl, "Vary": "Accept-Language"])
    }

    /// A catalog read answered for the bearer (their own holds, their recommendations): kept by
    /// no shared cache, revalidated each time, and in the asked language like every read (a
    /// fresh tester found `Vary` without `Accept-Language` on these).
    static func privateRead(_ value: some Encodable) throws -> Response {
        try APIApp.json(value, headers: ["Cache-Control": "private, no-cache", "Vary": "Accept-Language"])
    }

    /// `Cache-Control` of catalog reads without a token.
    static let catalogCacheControl = "public, no-cache"

    /// `POST /api/auth/login`: the account's email (or `username`) and password → a bearer token,
    /// throttled like the sign-in form.
    static func login(_ context: inout RequestContext) throws -> Response {
        let body = try APIApp.body(FakeStoreLogin.self, of: context.request)
        let user = try APIApp.signIn(body.username, password: body.password, refusal: .apiSignInWrong, context)
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
            throw APIError.notFound(.apiNoSuchProduct)
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
            throw APIError.notFound(.apiNoUser, ["user": "\(value)"])
        }
    }

    /// An account in Fake Store's shape: the username (the email when it has none); the name
    /// split at its first space; the profile's phone and address. Never the password.
    static func shape(_ user: User) -> FakeStoreUser {
        let words = user.name.split(separator: " ", maxSplits: 1).map(String.init)
        let address = user.profile.address
        return FakeStoreUser(id: user.id.rawValue, email: user.email, username: user.profile.username ?? user.email,
                             name: .init(firstname: words.first ?? "", lastname: words.count > 1 ? words[1] : ""),
                             address: .init(city: address.city, street: address.street, number: address.number,
                                            zipcode: address.zipcode,
                                            geolocation: .init(lat: address.latitude, long: address.longitude)),
                             phone: user.profile.phone)
    }

    /// `POST /api/users`: registers an account with the web's rules (throttled per client like
    /// the registration form); 201 with `Location`. No token needed.
    static func createUser(_ context: RequestContext) throws -> Response {
        let body = try APIApp.body(FakeStoreUserInput.self, of: context.request)
        // What registering needs, named when absent (a value present but refused is `invalid_field`).
        for (field, present) in [("email", body.email != nil), ("password", body.password != nil), ("name", body.name != nil)]
        where !present {
            throw APIError(status: .badRequest, code: "missing_field", .apiMissingField, ["field": field], field: field)
        }
        let environment = context.environment
        if let throttled = try context.countAttempt(environment.throttles.registration(client: context.clientAddress), at: context.now) {
            throw APIError.tooManyAttempts(throttled)
        }
        let created: User
        do {
            created = try accountWrite(context) {
                try environment.accountService.register(fields(body)) { email, name, token in
                    ShopApp.verificationEmail(to: email, name: name, token: token, context)
                }
            }
        } catch let error as APIError where error.code == "email_taken" {
            // The same registration sent again (a retried request): answered as the first was.
            guard let email = body.email.flatMap({ try? EmailRules.normalize($0) }), let password = body.password,
                  let same = try environment.accountService.repeatedRegistration(email: email, password: password),
                  same.profile.username?.lowercased() == body.username?.lowercased()
            else { throw error }
            created = same
        }
        let location = APIRoute.fakeStore(.user(FakeStoreID(created.id.rawValue))).request.url
        return try APIApp.json(shape(created), status: .created, headers: ["Location": environment.publicURL + location])
    }

    /// `PUT` (replacing) and `PATCH /api/users/{id}`: the account's own token or an operator's.
    static func updateUser(_ id: FakeStoreID, replacing: Bool, _ context: RequestContext) throws -> Response {
        let (viewer, session) = try APIApp.signedIn(context)
        guard let value = id.value else { throw APIError.malformedID(id, "user") }
        let body = try APIApp.body(FakeStoreUserInput.self, of: context.request)
        let changed = try accountWrite(context) {
            try context.environment.accountService.update(User.ID(value), fields(body), replacing: replacing, by: viewer,
                                                          session: session) { email, name, token in
                ShopApp.verificationEmail(to: email, name: name, token: token, context)
            } emailChangedNotice: { account, newEmail in
                ShopApp.emailChangedNotice(to: account, newEmail: newEmail, context)
            }
        }
        return try APIApp.json(shape(changed))
    }

    /// `DELETE /api/users/{id}`: deletes the account (orders stay); answers it as it was.
    static func deleteUser(_ id: FakeStoreID, _ context: RequestContext) throws -> Response {
        let viewer = try APIApp.account(context)
        guard let value = id.value else { throw APIError.malformedID(id, "user") }
        let deleted = try accountWrite(context) { try context.environment.accountService.delete(User.ID(value), by: viewer) }
        return try APIApp.json(shape(deleted))
    }

    /// The service's fields from a body: the name is first and last name joined by a space.
    private static func fields(_ body: FakeStoreUserInput) -> AccountService.AccountFields {
        let name = body.name.map { [$0.firstname ?? "", $0.lastname ?? ""].joined(separator: " ") }
        let address = body.address.map {
            AccountService.AddressFields(city: $0.city, street: $0.street, number: $0.number, zipcode: $0.zipcode,
                                         latitude: $0.geolocation?.lat, longitude: $0.geolocation?.long)
        }
        return .init(email: body.email, username: body.username, password: body.password, name: name, phone: body.phone,
                     address: address)
    }

    /// Runs an account write, its refusals as the error envelope.
    static func accountWrite(_ context: RequestContext, _ write: () throws -> User) throws -> User {
        do {
            return try write()
        } catch AccountServiceError.accountNotFound {
            throw APIError.notFound(.apiNoSuchUser)
        } catch AccountServiceError.emailTaken {
            throw APIError(status: .conflict, code: "email_taken", message: context.l10n.message(for: .emailTaken), field: "email")
        } catch AccountServiceError.lastOperator {
            throw APIError(status: .conflict, code: "last_operator", .apiLastOperator)
        } catch AccountServiceError.usernameTaken {
            throw APIError(status: .conflict, code: "username_taken", message: ProfileFieldError.usernameTaken.description,
                           field: "username")
        } catch let problem as AccountFieldProblem {
            let message = switch problem.problem {
            case let .account(error): context.l10n.message(for: error)
            case let .profile(error): error.description
            }
            throw APIError(status: .badRequest, code: "invalid_field", message: message, field: problem.field)
        }
    }
}
