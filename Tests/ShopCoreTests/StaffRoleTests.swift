import ShopCore
import Testing

/// Who may do what in the back office (issue #16): the one table, row by row.
@Suite("Staff roles")
struct StaffRoleTests {
    @Test(arguments: [
        (StaffRole.owner, Set(StaffPermission.allCases)),
        (.manager, [.viewOrders, .manageOrders, .cancelUnpaidOrders, .viewCustomers, .emailCustomers, .manageCatalog,
                    .manageCampaigns, .viewAudit]),
        (.support, [.viewOrders, .cancelUnpaidOrders, .viewCustomers, .emailCustomers]),
    ] as [(StaffRole, Set<StaffPermission>)])
    func eachRoleHasItsPermissions(role: StaffRole, permissions: Set<StaffPermission>) {
        #expect(role.permissions == permissions)
        for permission in StaffPermission.allCases { #expect(role.allows(permission) == permissions.contains(permission)) }
    }

    /// Support's one order step is cancelling an unpaid order; every other step of every status
    /// needs `manageOrders`.
    @Test(arguments: OrderAction.allCases)
    func anOrderStepNeedsManageOrdersButTheCancelOfAnUnpaidOrder(action: OrderAction) {
        for status in OrderStatus.allCases {
            let expected: StaffPermission = action == .cancel && status == .awaitingPayment ? .cancelUnpaidOrders : .manageOrders
            #expect(StaffRole.permission(for: action, from: status) == expected)
        }
    }
}
