public import Observation
public import ShopAPI
public import ShopCore
import ShopClient

/// A saved address as the address book lists it.
public struct AddressRow: Identifiable, Hashable, Sendable {
    /// The saved address's id.
    public var id: Int64
    /// The address as label lines, the country named in the locale's language.
    public var lines: [String]
    /// Whether checkout offers it first.
    public var isDefault: Bool
    /// The address as the API has it (to edit it: `AddressForm(address)`).
    public var address: V1Address

    /// The row of `saved`, written for `language`.
    public init(_ saved: V1SavedAddress, language: Language) {
        id = saved.id
        lines = saved.address.lines(in: language)
        isDefault = saved.isDefault
        address = saved.address
    }
}

/// The address book: list, add, edit, delete, make default.
///
/// Inputs: ``load()``, ``save(_:id:)``, ``delete(_:)``, ``makeDefault(_:)``. Outputs: ``state``,
/// ``fieldErrors`` of the form last saved (ShopCore's `AddressRules` in ShopCore's words, as the
/// storefront's form shows them), and ``notice`` when the shop refused a change.
///
/// Deleting and making default show at once and are rolled back when the shop refuses;
/// adding and editing wait for the shop (the saved address's id and cleaned values are its).
@MainActor
@Observable
public final class AddressBookModel {
    /// The addresses as loaded (``LoadState/empty`` for none).
    public private(set) var state: LoadState<[AddressRow]> = .idle
    /// The problems of the form last given to ``save(_:id:)``, by field.
    public private(set) var fieldErrors: [AddressField: [String]] = [:]
    /// Why the last change did not happen (the server's message, or "offline"); nil after a success.
    public private(set) var notice: String?
    /// The language of the texts.
    public var language: Language

    @ObservationIgnored private let shop: ShopOperations
    /// The app's connectivity: every request reports to it; changes wait for the network.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, written for `language`, its requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.connectivity = connectivity
    }

    /// Whether adding, editing, deleting and making default may be tapped (online).
    public var canChange: Bool { connectivity.isOnline }

    private var rows: [AddressRow] { state.value ?? [] }

    private func show(_ rows: [AddressRow]) {
        // The default first, then in the order saved (the storefront's `Address.bookOrder`).
        let sorted = rows.sorted { ($0.isDefault ? 0 : 1, $0.id) < ($1.isDefault ? 0 : 1, $1.id) }
        state = sorted.isEmpty ? .empty : .loaded(sorted)
    }

    /// Loads the address book.
    public func load() async {
        state = .loading
        state = await connectivity.list("addresses", retry: { [weak self] in await self?.load() },
                                        { [shop] in try await shop.addresses() }) { AddressRow($0, language: language) }
        if let rows = state.value { show(rows) }
    }

    /// Checks `form` and saves it: a new address when `id` is nil, else the address `id`.
    /// - Returns: `true` when the shop saved it; `false` with ``fieldErrors`` or ``notice``.
    @discardableResult
    public func save(_ form: AddressForm, id: Int64? = nil) async -> Bool {
        fieldErrors = form.errors(in: language)
        guard fieldErrors.isEmpty, let address = form.address else { return false }
        do {
            let isDefault = form.isDefault
            let saved = try await connectivity.send { [shop] in
                if let id { try await shop.updateAddress(id, address, isDefault) } else { try await shop.addAddress(address, isDefault) }
            }
            var rows = rows.filter { $0.id != saved.id }
            if saved.isDefault { rows = rows.map { var row = $0; row.isDefault = false; return row } }
            rows.append(AddressRow(saved, language: language))
            show(rows)
            notice = nil
            return true
        } catch {
            notice = Self.notice(NetworkError(error))
            return false
        }
    }

    /// Deletes the address `id` (at once; back if the shop refuses).
    public func delete(_ id: Int64) async {
        let before = rows
        show(before.filter { $0.id != id })
        do {
            try await connectivity.send { [shop] in try await shop.deleteAddress(id) }
            notice = nil
        } catch {
            show(before)
            notice = Self.notice(NetworkError(error))
        }
    }

    /// Makes the address `id` the default (at once; back if the shop refuses).
    public func makeDefault(_ id: Int64) async {
        let before = rows
        guard let row = before.first(where: { $0.id == id }), !row.isDefault else { return }
        show(before.map { var other = $0; other.isDefault = $0.id == id; return other })
        do {
            let saved = try await connectivity.send { [shop] in try await shop.updateAddress(id, row.address, true) }
            show(rows.map { $0.id == id ? AddressRow(saved, language: language) : $0 })
            notice = nil
        } catch {
            show(before)
            notice = Self.notice(NetworkError(error))
        }
    }

    private static func notice(_ error: NetworkError) -> String { error.message }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        guard case let .loaded(rows) = state else { return "[Addresses] \(state)" }
        var lines = ["[Addresses]"] + rows.map { "  \($0.isDefault ? "★" : "•") \($0.lines.joined(separator: ", "))" }
        if let notice { lines.append("  notice: \(notice)") }
        return lines.joined(separator: "\n")
    }
}
