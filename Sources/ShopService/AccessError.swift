public import ShopCore

/// Why a use case refused an account. Front doors map it: the API answers 403 `forbidden`.
///
/// Resources that belong to one shopper (carts, accounts) are not refused with this: they are
/// answered as missing (`.notFound` of their service), so ids do not tell a stranger they exist.
public enum AccessError: Error, Hashable, Sendable {
    /// Only an operator may do this (catalog writes, every account).
    case operatorOnly
}

extension User {
    /// Throws unless the account is an operator — the one check of "operators only".
    /// - Throws: `AccessError.operatorOnly`.
    func requireOperator() throws(AccessError) {
        guard isOperator else { throw .operatorOnly }
    }
}
