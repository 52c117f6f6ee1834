// Store values for unit tests whose every operation fails (STYLE.md 3; pointfreeco's
// `Failing.swift`, isowords' unimplemented test values). A test starts from `.failing` and
// supplies only the operations the code under test is expected to call:
//
//     var orders = OrderStore.failing
//     orders.available = { variants, _, _ in [variants[0]: 1] }  // one left
//     orders.placeOrder = { _, _ in .insufficientStock([chair.id: 0]) }  // gone meanwhile
//
// Any other call throws `UnimplementedStoreOperation("OrderStore.reserve")`, naming the store
// and the operation, so a test never passes through a store call it did not expect. Tests that
// need real behaviour (search ranking, holds, order placement) use SQLite `:memory:` through
// `TestShop` instead: there is no in-memory re-implementation of the SQL stores to drift from
// them (docs/ARCHITECTURE.md, "Testing").

public import ShopStore

/// The error every operation of a `.failing` store throws: a test called an operation it did not
/// override.
public struct UnimplementedStoreOperation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store and operation called, `"OrderStore.placeOrder"`.
    public var operation: String

    /// - Parameter operation: the store and operation, `"OrderStore.placeOrder"`.
    public init(_ operation: String) { self.operation = operation }

    public var description: String {
        "\(operation) was called, but the test did not override it (the store is `.failing`)."
    }
}

extension CatalogStore {
    /// A catalog whose every operation throws `UnimplementedStoreOperation`.
    public static var failing: CatalogStore {
        CatalogStore(
            categories: { throw UnimplementedStoreOperation("CatalogStore.categories") },
            categoryByHandle: { _ in throw UnimplementedStoreOperation("CatalogStore.categoryByHandle") },
            products: { _ in throw UnimplementedStoreOperation("CatalogStore.products") },
            productByHandle: { _ in throw UnimplementedStoreOperation("CatalogStore.productByHandle") },
            productsByID: { _ in throw UnimplementedStoreOperation("CatalogStore.productsByID") },
            upsertBy: { _, _, _, _ in throw UnimplementedStoreOperation("CatalogStore.upsertBy") },
            insertProduct: { _, _, _, _ in throw UnimplementedStoreOperation("CatalogStore.insertProduct") },
            changeProductsBy: { _, _, _, _ in throw UnimplementedStoreOperation("CatalogStore.changeProducts") },
            productCount: { throw UnimplementedStoreOperation("CatalogStore.productCount") },
            version: { throw UnimplementedStoreOperation("CatalogStore.version") },
            previewUpsertWith: { _, _ in throw UnimplementedStoreOperation("CatalogStore.previewUpsert") },
            allProducts: { throw UnimplementedStoreOperation("CatalogStore.allProducts") },
            findProducts: { _ in throw UnimplementedStoreOperation("CatalogStore.findProducts") },
            storedProduct: { _ in throw UnimplementedStoreOperation("CatalogStore.storedProduct") }
        )
    }
}

extension SessionStore {
    /// Sessions, carts and favorites whose every operation throws `UnimplementedStoreOperation`.
    public static var failing: SessionStore {
        SessionStore(
            create: { _ in throw UnimplementedStoreOperation("SessionStore.create") },
            createWithCart: { _, _ in throw UnimplementedStoreOperation("SessionStore.createWithCart") },
            find: { _ in throw UnimplementedStoreOperation("SessionStore.find") },
            touch: { _, _, _ in throw UnimplementedStoreOperation("SessionStore.touch") },
            renewCSRFToken: { _, _ in throw UnimplementedStoreOperation("SessionStore.renewCSRFToken") },
            delete: { _ in throw UnimplementedStoreOperation("SessionStore.delete") },
            deleteAll: { _, _ in throw UnimplementedStoreOperation("SessionStore.deleteAll") },
            purgeExpired: { _ in throw UnimplementedStoreOperation("SessionStore.purgeExpired") },
            signIn: { _ in throw UnimplementedStoreOperation("SessionStore.signIn") },
            loadCart: { _ in throw UnimplementedStoreOperation("SessionStore.loadCart") },
            saveCart: { _, _ in throw UnimplementedStoreOperation("SessionStore.saveCart") },
            changeCart: { _, _ in throw UnimplementedStoreOperation("SessionStore.changeCart") },
            favorites: { _ in throw UnimplementedStoreOperation("SessionStore.favorites") },
            setFavorite: { _, _, _, _ in throw UnimplementedStoreOperation("SessionStore.setFavorite") }
        )
    }
}

extension AccountStore {
    /// Accounts, tokens, throttles and the outbox, every operation throwing
    /// `UnimplementedStoreOperation`.
    public static var failing: AccountStore {
        AccountStore(
            register: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.register") },
            createUser: { _, _ in throw UnimplementedStoreOperation("AccountStore.createUser") },
            user: { _ in throw UnimplementedStoreOperation("AccountStore.user") },
            credentials: { _ in throw UnimplementedStoreOperation("AccountStore.credentials") },
            users: { throw UnimplementedStoreOperation("AccountStore.users") },
            userNamed: { _ in throw UnimplementedStoreOperation("AccountStore.userNamed") },
            updateUser: { _, _ in throw UnimplementedStoreOperation("AccountStore.updateUser") },
            deleteUser: { _, _ in throw UnimplementedStoreOperation("AccountStore.deleteUser") },
            issueToken: { _, _, _, _ in throw UnimplementedStoreOperation("AccountStore.issueToken") },
            verifyEmail: { _, _ in throw UnimplementedStoreOperation("AccountStore.verifyEmail") },
            passwordResetUser: { _, _ in throw UnimplementedStoreOperation("AccountStore.passwordResetUser") },
            resetPassword: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.resetPassword") },
            changePassword: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.changePassword") },
            rehashPassword: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.rehashPassword") },
            countAttempt: { _, _ in throw UnimplementedStoreOperation("AccountStore.countAttempt") },
            clearAttempts: { _ in throw UnimplementedStoreOperation("AccountStore.clearAttempts") },
            uncountAttempt: { _, _ in throw UnimplementedStoreOperation("AccountStore.uncountAttempt") },
            purgeAttempts: { _ in throw UnimplementedStoreOperation("AccountStore.purgeAttempts") },
            enqueue: { _ in throw UnimplementedStoreOperation("AccountStore.enqueue") },
            dueMessages: { _, _ in throw UnimplementedStoreOperation("AccountStore.dueMessages") },
            claimDueMessages: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.claimDueMessages") },
            markSent: { _, _ in throw UnimplementedStoreOperation("AccountStore.markSent") },
            markFailed: { _, _, _ in throw UnimplementedStoreOperation("AccountStore.markFailed") }
        )
    }
}

extension OrderStore {
    /// Orders, stock holds and checkouts whose every operation throws
    /// `UnimplementedStoreOperation`.
    public static var failing: OrderStore {
        OrderStore(
            reserve: { _, _, _, _ in throw UnimplementedStoreOperation("OrderStore.reserve") },
            releaseReservation: { _ in throw UnimplementedStoreOperation("OrderStore.releaseReservation") },
            sweepExpiredReservations: { _ in throw UnimplementedStoreOperation("OrderStore.sweepExpiredReservations") },
            available: { _, _, _ in throw UnimplementedStoreOperation("OrderStore.available") },
            heldProducts: { _ in throw UnimplementedStoreOperation("OrderStore.heldProducts") },
            holdEnds: { _ in throw UnimplementedStoreOperation("OrderStore.holdEnds") },
            placeOrder: { _, _ in throw UnimplementedStoreOperation("OrderStore.placeOrder") },
            voucherUses: { _, _ in throw UnimplementedStoreOperation("OrderStore.voucherUses") },
            order: { _ in throw UnimplementedStoreOperation("OrderStore.order") },
            orders: { _ in throw UnimplementedStoreOperation("OrderStore.orders") },
            guestOrder: { _ in throw UnimplementedStoreOperation("OrderStore.guestOrder") },
            findOrders: { _ in throw UnimplementedStoreOperation("OrderStore.findOrders") },
            apply: { _, _ in throw UnimplementedStoreOperation("OrderStore.apply") },
            history: { _ in throw UnimplementedStoreOperation("OrderStore.history") },
            unpaidOrders: { _, _ in throw UnimplementedStoreOperation("OrderStore.unpaidOrders") },
            setStockBy: { _, _, _, _ in throw UnimplementedStoreOperation("OrderStore.setStock") },
            takeReservationTrims: { _, _ in throw UnimplementedStoreOperation("OrderStore.takeReservationTrims") },
            placedOrder: { _, _ in throw UnimplementedStoreOperation("OrderStore.placedOrder") },
            checkout: { _ in throw UnimplementedStoreOperation("OrderStore.checkout") },
            saveCheckout: { _, _ in throw UnimplementedStoreOperation("OrderStore.saveCheckout") }
        )
    }
}

extension AddressStore {
    /// An address book whose every operation throws `UnimplementedStoreOperation`.
    public static var failing: AddressStore {
        AddressStore(
            list: { _ in throw UnimplementedStoreOperation("AddressStore.list") },
            address: { _, _ in throw UnimplementedStoreOperation("AddressStore.address") },
            save: { _, _ in throw UnimplementedStoreOperation("AddressStore.save") },
            delete: { _, _ in throw UnimplementedStoreOperation("AddressStore.delete") }
        )
    }
}

extension CampaignStore {
    /// Campaigns whose every operation throws `UnimplementedStoreOperation`.
    public static var failing: CampaignStore {
        CampaignStore(
            changeBy: { _, _, _ in throw UnimplementedStoreOperation("CampaignStore.change") },
            all: { throw UnimplementedStoreOperation("CampaignStore.all") },
            campaign: { _ in throw UnimplementedStoreOperation("CampaignStore.campaign") },
            byVoucherCode: { _ in throw UnimplementedStoreOperation("CampaignStore.byVoucherCode") },
            version: { throw UnimplementedStoreOperation("CampaignStore.version") }
        )
    }
}
