public import ShopStore
import Foundation
import ShopCore
import SQLite

extension AddressStore {
    /// The address book in a SQLite database (table `addresses`, `ShopSchema` version 6).
    ///
    /// - `list` returns the account's addresses by id (the web sorts with `Address.bookOrder`).
    /// - `save` inserts (id nil; ids are never reused) or updates one of the account's addresses
    ///   in one transaction; a default address clears the account's other default first (a partial
    ///   unique index allows one default per account). It throws `AccountStoreError.userNotFound`
    ///   for an unknown account and `AddressStoreError.addressNotFound` for an id that is not
    ///   the account's (nothing changes then). Values are stored as given (validate with
    ///   `AddressRules.validate` first).
    /// - `address` and `delete` see only the account's own addresses: another account's id
    ///   gives nil / does nothing. Addresses go with their account (`ON DELETE CASCADE`).
    /// - Parameter database: the migrated database.
    public static func sqlite(_ database: SQLiteDatabase) -> AddressStore {
        AddressStore(
            list: { userID in
                try database.withConnection { connection in
                    try connection.prepare(SQLAddresses.select + " WHERE user_id = ? ORDER BY id")
                        .query([.integer(userID.rawValue)]).map(SQLAddresses.address)
                }
            },
            address: { userID, addressID in
                try database.withConnection { connection in
                    try connection.prepare(SQLAddresses.select + " WHERE user_id = ? AND id = ?")
                        .first([.integer(userID.rawValue), .integer(addressID.rawValue)]).map(SQLAddresses.address)
                }
            },
            save: { userID, address in
                try database.withConnection { connection in
                    try connection.transaction {
                        guard try connection.prepare("SELECT 1 FROM users WHERE id = ?").first([.integer(userID.rawValue)]) != nil else {
                            throw AccountStoreError.userNotFound
                        }
                        if address.isDefault {
                            try connection.prepare("UPDATE addresses SET is_default = 0 WHERE user_id = ? AND is_default = 1 AND id IS NOT ?")
                                .run([.integer(userID.rawValue), SQLValue(address.id?.rawValue)])
                        }
                        let values: [SQLValue] = [
                            .text(address.firstName), .text(address.lastName), .text(address.phone), SQLValue(address.email),
                            .text(address.line1), .text(address.line2), .text(address.city), .text(address.postalCode),
                            SQLValue(address.region), .text(address.countryCode), SQLValue(address.isDefault),
                        ]
                        var saved = address
                        if let id = address.id {
                            try connection.prepare("""
                                UPDATE addresses SET first_name = ?, last_name = ?, phone = ?, email = ?, line1 = ?, line2 = ?,
                                    city = ?, postal_code = ?, region = ?, country_code = ?, is_default = ?
                                WHERE id = ? AND user_id = ?
                                """).run(values + [.integer(id.rawValue), .integer(userID.rawValue)])
                            guard connection.changes == 1 else { throw AddressStoreError.addressNotFound }
                        } else {
                            try connection.prepare("""
                                INSERT INTO addresses (first_name, last_name, phone, email, line1, line2, city, postal_code,
                                    region, country_code, is_default, user_id)
                                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                                """).run(values + [.integer(userID.rawValue)])
                            saved.id = Address.ID(connection.lastInsertRowID)
                        }
                        return saved
                    }
                }
            },
            delete: { userID, addressID in
                try database.withConnection { connection in
                    try connection.transaction {
                        try connection.prepare("DELETE FROM addresses WHERE user_id = ? AND id = ?")
                            .run([.integer(userID.rawValue), .integer(addressID.rawValue)])
                    }
                }
            }
        )
    }
}

/// The SQL behind `AddressStore.sqlite`.
private enum SQLAddresses {
    static let select = """
        SELECT id, first_name, last_name, phone, email, line1, line2, city, postal_code, region, country_code, is_default
        FROM addresses
        """

    static func address(_ row: Row) throws -> Address {
        Address(id: Address.ID(try row.int64(0)), firstName: try row.string(1), lastName: try row.string(2),
                phone: try row.string(3), email: try row.optionalString(4), line1: try row.string(5),
                line2: try row.string(6), city: try row.string(7), postalCode: try row.string(8),
                region: try row.optionalString(9), countryCode: try row.string(10), isDefault: try row.bool(11))
    }
}
