public import ShopStore
import Foundation
import Postgres
import ShopCore

extension AddressStore {
    /// The address book in PostgreSQL (`PostgresSchema` migration 6), with the behaviour of
    /// `AddressStore.sqlite`:
    ///
    /// - `list` returns the account's addresses by id;
    /// - `save` inserts (id nil; ids are never reused) or updates one of the account's
    ///   addresses in one transaction; a default address clears the account's other default
    ///   first. It throws `AccountStoreError.userNotFound` for an unknown account and
    ///   `AddressStoreError.addressNotFound` for an id that is not the account's (nothing
    ///   changes then);
    /// - `address` and `delete` see only the account's own addresses.
    ///
    /// Under READ COMMITTED two saves of a default address for one account at once would both
    /// clear the other default and then collide on the one-default index; `save` therefore
    /// locks the account's row first (`FOR UPDATE`), so one account's saves take turns — as
    /// every write does on SQLite — and other accounts' do not wait.
    /// - Parameter database: the migrated database.
    public static func postgres(_ database: PostgresDatabase) -> AddressStore {
        AddressStore(
            list: { userID in
                try database.withConnection { connection in
                    try connection.query("SELECT \(StoredAddress.columns) FROM addresses WHERE user_id = $1 ORDER BY id", [.integer(userID.rawValue)])
                        .map { try StoredAddress.address($0) }
                }
            },
            address: { userID, addressID in
                try database.withConnection { connection in
                    try connection.first("SELECT \(StoredAddress.columns) FROM addresses WHERE user_id = $1 AND id = $2",
                                         [.integer(userID.rawValue), .integer(addressID.rawValue)]).map { try StoredAddress.address($0) }
                }
            },
            save: { userID, address in
                try database.transaction { connection in
                    guard try connection.first("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", [.integer(userID.rawValue)]) != nil else {
                        throw AccountStoreError.userNotFound
                    }
                    if address.isDefault {
                        try connection.run("""
                            UPDATE addresses SET is_default = false
                            WHERE user_id = $1 AND is_default AND id IS DISTINCT FROM $2::bigint
                            """, [.integer(userID.rawValue), PostgresValue(address.id?.rawValue)])
                    }
                    let values: [PostgresValue] = [
                        .text(address.firstName), .text(address.lastName), .text(address.phone), PostgresValue(address.email),
                        .text(address.line1), .text(address.line2), .text(address.city), .text(address.postalCode),
                        PostgresValue(address.region), .text(address.countryCode), .bool(address.isDefault),
                        .integer(userID.rawValue),
                    ]
                    var saved = address
                    if let id = address.id {
                        let updated = try connection.run("""
                            UPDATE addresses SET first_name = $1, last_name = $2, phone = $3, email = $4, line1 = $5,
                                line2 = $6, city = $7, postal_code = $8, region = $9, country_code = $10, is_default = $11
                            WHERE user_id = $12 AND id = $13
                            """, values + [.integer(id.rawValue)])
                        // Another account's id, or none: nothing changed (the default was cleared in
                        // this transaction, which the throw rolls back).
                        guard updated == 1 else { throw AddressStoreError.addressNotFound }
                    } else {
                        let row = try connection.first("""
                            INSERT INTO addresses (first_name, last_name, phone, email, line1, line2, city, postal_code,
                                region, country_code, is_default, user_id)
                            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id
                            """, values)
                        saved.id = Address.ID(try row.map { try $0.int64(0) } ?? 0)
                    }
                    return saved
                }
            },
            delete: { userID, addressID in
                try database.transaction { connection in
                    _ = try connection.run("DELETE FROM addresses WHERE user_id = $1 AND id = $2",
                                           [.integer(userID.rawValue), .integer(addressID.rawValue)])
                }
            }
        )
    }
}
