import ShopService

extension AppEnvironment {
    /// Accounts as a use case, over this environment's store, secrets and clock.
    var accountService: AccountService {
        AccountService(accounts: accounts, crypto: crypto, now: now, dummyPasswordHash: dummyPasswordHash)
    }
}

extension AppEnvironment {
    /// The API's access and refresh tokens as a use case, when the environment has their store.
    var apiTokenService: APITokenService? {
        apiTokens.map { APITokenService(tokens: $0, sessions: sessionService, accessTokenLifetime: accessTokenLifetime) }
    }
}

extension AppEnvironment {
    /// Product writes (the API's, operators only), over this environment's catalog, currency and clock.
    var catalogAdmin: CatalogAdminService { CatalogAdminService(catalog: catalog, currency: currency, now: now) }
}

extension AppEnvironment {
    /// The API's saved carts (Fake Store carts) as a use case, when the environment has their store.
    var savedCartService: SavedCartService? {
        savedCarts.map { SavedCartService(carts: $0, catalog: catalog, now: now) }
    }
}
