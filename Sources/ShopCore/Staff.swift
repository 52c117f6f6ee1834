public import Foundation

/// What a staff member is allowed to do in the back office (issue #16). Roles are fixed sets of
/// these (`StaffRole.permissions`); a page or action names the one permission it needs, and the
/// back office checks it in one place before it runs.
public enum StaffPermission: String, Hashable, Sendable, CaseIterable {
    /// Read orders: the list, an order's detail and history.
    case viewOrders
    /// Mark orders paid, fulfil them, mark them delivered, cancel them whatever their status
    /// allows, refund.
    case manageOrders
    /// Cancel an order that is still awaiting payment (support's one order step: nothing was paid,
    /// so nothing is refunded).
    case cancelUnpaidOrders
    /// Read customers' accounts and their orders.
    case viewCustomers
    /// Send a customer their confirmation email again, or a password-reset link (the link goes
    /// to the customer only; no staff member sees a token).
    case emailCustomers
    /// Products, variants, prices, stock, imports.
    case manageCatalog
    /// Campaigns and voucher codes.
    case manageCampaigns
    /// Create staff accounts and change their roles.
    case manageStaff
    /// Read the audit log.
    case viewAudit

    /// What the permission is, for the refusal page and `staff list` ("mark orders paid, …").
    public var summary: String {
        switch self {
        case .viewOrders: "read orders"
        case .manageOrders: "change orders"
        case .cancelUnpaidOrders: "cancel unpaid orders"
        case .viewCustomers: "read customers"
        case .emailCustomers: "send customers emails"
        case .manageCatalog: "change the catalog and stock"
        case .manageCampaigns: "change campaigns and vouchers"
        case .manageStaff: "manage staff"
        case .viewAudit: "read the audit log"
        }
    }
}

/// A staff member's role: owner (everything, staff included), manager (catalog, campaigns,
/// orders, stock), support (read orders and customers, cancel unpaid orders).
public enum StaffRole: String, Hashable, Sendable, CaseIterable {
    case owner, manager, support

    /// Everything the role may do — the one table of who may do what.
    public var permissions: Set<StaffPermission> {
        switch self {
        case .owner: Set(StaffPermission.allCases)
        case .manager: [.viewOrders, .manageOrders, .cancelUnpaidOrders, .viewCustomers, .emailCustomers, .manageCatalog,
                        .manageCampaigns, .viewAudit]
        case .support: [.viewOrders, .cancelUnpaidOrders, .viewCustomers, .emailCustomers]
        }
    }

    /// `true` when the role has `permission`.
    public func allows(_ permission: StaffPermission) -> Bool { permissions.contains(permission) }

    /// The permission that lets a staff member apply `action` to an order in `status`: support
    /// may cancel an order awaiting payment, every other step is `manageOrders`. (Whether the
    /// step is legal from that status is `OrderStatus.transition`'s answer, asked after this.)
    public static func permission(for action: OrderAction, from status: OrderStatus) -> StaffPermission {
        action == .cancel && status == .awaitingPayment ? .cancelUnpaidOrders : .manageOrders
    }
}

/// A person who runs the shop, signed in at `/admin` with their own account (issue #16) — not a
/// shopper's account: staff and shoppers are separate tables, sessions and cookies.
public struct StaffMember: Identifiable, Hashable, Sendable {
    public typealias ID = Tagged<StaffMember, Int64>

    public var id: ID
    /// Lower-cased (`EmailRules.normalize`); what they sign in with, and what the order history
    /// and audit name them by.
    public var email: String
    public var name: String
    public var role: StaffRole
    public var createdAt: Date
    /// The language the back office speaks to them.
    public var language: Language

    public init(id: ID, email: String, name: String, role: StaffRole, createdAt: Date, language: Language = .english) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.language = language
    }

    /// `true` when their role has `permission`.
    public func may(_ permission: StaffPermission) -> Bool { role.allows(permission) }
}
