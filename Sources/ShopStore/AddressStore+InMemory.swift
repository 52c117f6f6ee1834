import ShopCore

extension AddressStore {
    /// The address book kept in memory (see `InMemoryDatabase`), with the semantics of
    /// `AddressStore.sqlite`: ids from 1, never reused; `list` by id; one default per account
    /// (saving a default clears the other in the same locked step); `save` throws
    /// `AccountStoreError.userNotFound` for an unknown account and
    /// `AddressStoreError.addressNotFound` for an id that is not the account's (nothing
    /// changes then); another account's addresses are invisible to `address` and `delete`.
    /// - Parameter database: the state shared with `AccountStore.inMemory(_:)` (accounts).
    public static func inMemory(_ database: InMemoryDatabase) -> AddressStore {
        AddressStore(
            list: { userID in
                database.withLock { state in
                    state.addresses.values.filter { $0.userID == userID }.map(\.address)
                        .sorted { $0.id!.rawValue < $1.id!.rawValue }
                }
            },
            address: { userID, addressID in
                database.withLock { state in
                    state.addresses[addressID].flatMap { $0.userID == userID ? $0.address : nil }
                }
            },
            save: { userID, address in
                try database.withLock { state in
                    guard state.users[userID] != nil else { throw AccountStoreError.userNotFound }
                    var saved = address
                    if let id = address.id {
                        guard state.addresses[id]?.userID == userID else { throw AddressStoreError.addressNotFound }
                    } else {
                        saved.id = Address.ID(state.nextAddressID)
                        state.nextAddressID += 1
                    }
                    if saved.isDefault {
                        for (id, entry) in state.addresses where entry.userID == userID && entry.address.isDefault {
                            state.addresses[id]?.address.isDefault = false
                        }
                    }
                    state.addresses[saved.id!] = InMemoryAddress(userID: userID, address: saved)
                    return saved
                }
            },
            delete: { userID, addressID in
                database.withLock { state in
                    if state.addresses[addressID]?.userID == userID { state.addresses[addressID] = nil }
                }
            }
        )
    }
}
