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
                    try connection.prepare("SELECT \(StoredAddress.columns) FROM addresses WHERE user_id = ? ORDER BY id")
                        .query([.integer(userID.rawValue)]).map { try StoredAddress.address($0) }
                }
            },
            address: { userID, addressID in
                try database.withConnection { connection in
                    try connection.prepare("SELECT \(StoredAddress.columns) FROM addresses WHERE user_id = ? AND id = ?")
                        .first([.integer(userID.rawValue), .integer(addressID.rawValue)]).map { try StoredAddress.address($0) }
                }
            },
            save: { userID, address in
                try database.write { connection in
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
            },
            delete: { userID, addressID in
                try database.write { connection in
                    try connection.prepare("DELETE FROM addresses WHERE user_id = ? AND id = ?")
                        .run([.integer(userID.rawValue), .integer(addressID.rawValue)])
                }
            }
        )
    }
}
