import Foundation
import Postgres
import ShopCore
import ShopStore
import ShopStorePostgres
import ShopTestSupport
import Synchronization
import Testing

/// Issue #16: `OrderStore.apply` — the order's life on every engine, by the one decision
/// (`OrderActions.apply` over `OrderStatus.transition`), with stock given back exactly once.
@Suite("Order lifecycle contract")
struct OrderLifecycleContractTests {
    static let later = Fixtures.start.addingTimeInterval(3_600)

    /// A shop with an order of 2 chairs (tracked), 1 lamp (untracked) and 1 poster (backorder):
    /// the chairs' stock is 8 after it.
    private static func ordered(_ kind: StoreKind, poolSize: Int = 4) throws -> (StoreHarness, Order) {
        let stores = try StoreHarness(kind, poolSize: poolSize)
        try stores.stockShop()
        let shopper = try stores.guest("buyer")
        let request = OrderFixtures.request(shopper, [(try stores.variant("chair").variant, 2), (try stores.variant("lamp").variant, 1),
                                                      (try stores.variant("poster").variant, 1)])
        let order = try #require(try stores.orders.placeOrder(request, Fixtures.start).placedOrder)
        #expect(try stores.available("chair") == 8)
        return (stores, order)
    }

    private static func request(_ order: Order, _ action: OrderAction, fulfilment: Fulfilment? = nil,
                                actor: String = "cli") -> OrderActionRequest {
        OrderActionRequest(number: order.number, action: action, fulfilment: fulfilment, actor: actor)
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func anOrderIsPaidFulfilledAndDeliveredWithItsHistory(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)
        let paid = try stores.orders.apply(Self.request(order, .markPaid, actor: "ana@shop.example"), Self.later)
        #expect(paid.order.status == .paid)
        #expect(paid.event == OrderEvent(at: Self.later, actor: "ana@shop.example", action: .markPaid, from: .awaitingPayment, to: .paid))

        let ups = try Fulfilment(carrier: "UPS", trackingNumber: "1Z999AA10123456784")
        let fulfilled = try stores.orders.apply(Self.request(order, .fulfil, fulfilment: ups), Self.later)
        #expect(fulfilled.order.status == .fulfilled && fulfilled.order.fulfilment == ups)
        #expect(try stores.orders.order(order.number)?.fulfilment == ups, "read back with the order")

        let delivered = try stores.orders.apply(Self.request(order, .markDelivered), Self.later.addingTimeInterval(86_400))
        #expect(delivered.order.status == .delivered && delivered.order.fulfilment == ups, "the tracking number stays")
        #expect(try stores.available("chair") == 8, "nothing goes back to stock on the way")
        #expect(try stores.orders.history(order.id).map { "\($0.from.rawValue)→\($0.to.rawValue) \($0.actor)" } == [
            "awaiting_payment→paid ana@shop.example", "paid→fulfilled cli", "fulfilled→delivered cli",
        ])
        #expect(try stores.orders.history(order.id)[1].fulfilment == ups)
    }

    /// The shopper's email about a step is queued in the step's transaction, only for steps that
    /// email them, and not at all when the step is refused (issue #16). The order keeps the
    /// language it was placed in, for those emails.
    @Test(arguments: StoreKind.engines(for: .orders))
    func aStepsEmailIsQueuedWithItOnlyWhenTheStepEmailsTheShopper(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.stockShop()
        var placing = OrderFixtures.request(try stores.guest("buyer"), [(try stores.variant("chair").variant, 1)])
        placing.language = .turkish
        let order = try #require(try stores.orders.placeOrder(placing, Fixtures.start).placedOrder)
        let stored = try stores.orders.order(order.number)
        #expect(order.language == .turkish && stored?.language == .turkish)
        func email(_ subject: String) -> OutboxDraft {
            OutboxDraft(toAddress: "ana@example.com", toName: "Ana", subject: subject, textBody: "…", createdAt: Fixtures.start)
        }
        func subjects() throws -> [String] { try stores.accounts.dueMessages(.distantFuture, 100).map(\.draft.subject) }
        var request = Self.request(order, .markPaid)
        request.notification = email("paid")
        _ = try stores.orders.apply(request, Self.later)
        request.notification = email("paid twice")
        #expect(throws: OrderTransitionRefused.self) { try stores.orders.apply(request, Self.later) }
        #expect(try subjects() == ["paid"], "a refused step queues nothing")
        request = Self.request(order, .fulfil, fulfilment: try Fulfilment(carrier: "PTT", trackingNumber: "1"))
        request.notification = email("shipped")
        _ = try stores.orders.apply(request, Self.later)
        request = Self.request(order, .markDelivered)
        request.notification = email("delivered")
        _ = try stores.orders.apply(request, Self.later)
        #expect(try subjects() == ["paid", "shipped"], "delivered emails nobody")
    }

    /// Refunds of some units (issue #16): from a paid order they go back to stock once; the
    /// units refunded are kept per line, more than are left is refused; a later cancel owes only
    /// the rest; a shipped order's refund leaves stock alone.
    @Test(arguments: StoreKind.engines(for: .orders))
    func refundingSomeUnitsReturnsThemOnceAndKeepsCount(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)  // 2 chairs (tracked), 1 lamp, 1 poster
        _ = try stores.orders.apply(Self.request(order, .markPaid), Self.later)
        var refund = Self.request(order, .refund)
        refund.refundLines = [LineRefund(line: 1, quantity: 1)]
        refund.notification = OutboxDraft(toAddress: "ana@example.com", toName: "Ana", subject: "refund", textBody: "…",
                                          createdAt: Self.later)
        let first = try stores.orders.apply(refund, Self.later)
        let chairLine = order.lines[0]
        #expect(first.order.status == .paid && first.order.lines[0].refundedQuantity == 1)
        #expect(first.event.itemsReturned == 1 && first.event.refundedMinor == chairLine.amount(ofFirst: 1).minorUnits)
        #expect(try stores.available("chair") == 9)
        #expect(try stores.accounts.dueMessages(.distantFuture, 10).map(\.draft.subject) == ["refund"])
        refund.refundLines = [LineRefund(line: 1, quantity: 2)]
        #expect(throws: RefundError.quantityNotAvailable(line: 1, remaining: 1)) { try stores.orders.apply(refund, Self.later) }
        refund.refundLines = [LineRefund(line: 1, quantity: 1)]
        refund.expectedRefundMinor = 1
        #expect(throws: OrderActionError.refundChanged) { try stores.orders.apply(refund, Self.later) }
        // The same refund sent again by someone who saw the order before the first (a second
        // tab, a resend): it would come to the same amount, but a refund came since.
        refund.expectedRefundMinor = nil
        refund.refundedUnitsSeen = 0
        #expect(throws: OrderActionError.refundChanged) { try stores.orders.apply(refund, Self.later) }
        #expect(try stores.available("chair") == 9, "refused refunds change nothing")
        #expect(try stores.orders.order(order.number)?.refundedUnits == 1)

        let cancelled = try stores.orders.apply(Self.request(order, .cancel), Self.later)
        #expect(cancelled.event.itemsReturned == 1, "the other chair: the lamp is untracked, the poster backordered")
        #expect(cancelled.event.refundedMinor == order.total.minorUnits - chairLine.amount(ofFirst: 1).minorUnits)
        #expect(try stores.available("chair") == 10)
        let audit = try stores.audit.entries(AuditQuery(subject: "order")).entries
        #expect(audit.contains { $0.action == "refund" && $0.changes.map(\.field) == ["line 1 refunded", "itemsReturnedToStock", "refundOwed"] })
    }

    /// Found by a fresh tester: an order every unit of which was refunded (the units back on
    /// sale) could still be fulfilled. It cannot, until then it can; a cancel still can.
    @Test(arguments: StoreKind.engines(for: .orders))
    func anOrderRefundedInFullHasNothingToShip(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)  // 2 chairs, 1 lamp, 1 poster
        _ = try stores.orders.apply(Self.request(order, .markPaid), Self.later)
        let shipping = Self.request(order, .fulfil, fulfilment: try Fulfilment(carrier: "UPS", trackingNumber: "1"))
        var refund = Self.request(order, .refund)
        refund.refundLines = [LineRefund(line: 1, quantity: 2), LineRefund(line: 2, quantity: 1)]
        let partly = try stores.orders.apply(refund, Self.later).order
        #expect(partly.hasUnitsToShip && partly.allows(.fulfil), "the poster is left")
        refund.refundLines = [LineRefund(line: 3, quantity: 1)]
        let refunded = try stores.orders.apply(refund, Self.later).order
        #expect(!refunded.hasUnitsToShip && !refunded.allows(.fulfil) && refunded.allows(.cancel))
        #expect(throws: OrderActionError.nothingToShip) { try stores.orders.apply(shipping, Self.later) }
        #expect(try stores.orders.order(order.number)?.status == .paid, "nothing written")
        #expect(try stores.orders.history(order.id).map(\.action) == [.markPaid, .refund, .refund])
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func aShippedOrdersRefundLeavesStockAlone(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)
        _ = try stores.orders.apply(Self.request(order, .markPaid), Self.later)
        _ = try stores.orders.apply(Self.request(order, .fulfil, fulfilment: try Fulfilment(carrier: "UPS", trackingNumber: "1")), Self.later)
        var refund = Self.request(order, .refund)
        refund.refundLines = [LineRefund(line: 1, quantity: 2), LineRefund(line: 2, quantity: 1)]
        let result = try stores.orders.apply(refund, Self.later)
        #expect(result.order.status == .fulfilled && result.event.itemsReturned == 0)
        #expect(result.event.refundedMinor == order.lines[0].total.minorUnits + order.lines[1].total.minorUnits)
        #expect(try stores.available("chair") == 8)
    }

    /// Two staff members refund the last unit of a line at the same moment: one refund is
    /// applied, the other refused, and the unit goes back to stock once.
    @Test(arguments: StoreKind.engines(for: .orders).filter { $0 != .sqlite })
    func twoRefundsOfTheLastUnitAtOnceRefundItOnce(kind: StoreKind) throws {
        for _ in 0..<10 {
            let (stores, order) = try Self.ordered(kind, poolSize: 8)
            _ = try stores.orders.apply(Self.request(order, .markPaid), Self.later)
            var refund = Self.request(order, .refund)
            refund.refundLines = [LineRefund(line: 1, quantity: 2)]
            let request = refund, orders = stores.orders
            let outcomes = try ConcurrentRun.together(2) { _ -> Bool in
                do {
                    _ = try orders.apply(request, Self.later)
                    return true
                } catch is RefundError {
                    return false
                }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            #expect(try stores.available("chair") == 10)
            #expect(try stores.orders.order(order.number)?.lines[0].refundedQuantity == 2)
        }
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func cancellingGivesBackWhatTheOrderTookOnceAndRecordsAPaidOrdersRefund(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)
        _ = try stores.orders.apply(Self.request(order, .markPaid), Self.later)
        let cancelled = try stores.orders.apply(Self.request(order, .cancel), Self.later)
        #expect(cancelled.order.status == .cancelled)
        // The 2 chairs it took; not the lamp (untracked) nor the poster (backorder: none was taken).
        #expect(cancelled.event.itemsReturned == 2)
        #expect(cancelled.event.refundedMinor == order.total.minorUnits)
        #expect(try stores.available("chair") == 10)
        #expect(try stores.available("poster") == .some(nil), "backorder: not counted")

        let again = #expect(throws: OrderTransitionRefused.self) { try stores.orders.apply(Self.request(order, .cancel), Self.later) }
        #expect(again == OrderTransitionRefused(from: .cancelled, action: .cancel))
        #expect(try stores.available("chair") == 10, "a second cancel gives nothing back")
        #expect(try stores.orders.history(order.id).map(\.action) == [.markPaid, .cancel])
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func anUnpaidOrdersCancelRecordsNoRefundAndStockSetSinceIsAddedTo(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)
        _ = try stores.orders.setStock("CHAIR-1", 5, Fixtures.start)  // counted again meanwhile
        let cancelled = try stores.orders.apply(Self.request(order, .cancel), Self.later)
        #expect(cancelled.event.refundedMinor == 0 && cancelled.event.itemsReturned == 2)
        #expect(try stores.available("chair") == 7, "added to what is on the shelf now")
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func anIllegalStepOrAnUnknownOrderChangesNothing(kind: StoreKind) throws {
        let (stores, order) = try Self.ordered(kind)
        let ups = try Fulfilment(carrier: "UPS", trackingNumber: "1Z")
        #expect(throws: OrderTransitionRefused(from: .awaitingPayment, action: .fulfil)) {
            try stores.orders.apply(Self.request(order, .fulfil, fulfilment: ups), Self.later)
        }
        #expect(throws: OrderActionError.fulfilmentMissing) { try stores.orders.apply(Self.request(order, .fulfil), Self.later) }
        #expect(throws: OrderTransitionRefused(from: .awaitingPayment, action: .refund)) {
            try stores.orders.apply(Self.request(order, .refund), Self.later)
        }
        #expect(throws: OrderActionError.orderNotFound("9999-ZZZZ")) {
            try stores.orders.apply(OrderActionRequest(number: "9999-ZZZZ", action: .markPaid, actor: "cli"), Self.later)
        }
        let stored = try #require(try stores.orders.order(order.number))
        #expect(stored.status == .awaitingPayment && stored.fulfilment == nil)
        #expect(try stores.orders.history(order.id).isEmpty)
    }

    /// Two staff members cancel one order at the same moment (on PostgreSQL, from two servers):
    /// one cancel is applied, the other refused, and the stock comes back once.
    @Test(arguments: StoreKind.engines(for: .orders))
    func twoCancelsAtOnceGiveTheStockBackOnce(kind: StoreKind) throws {
        let (stores, _) = try Self.ordered(kind, poolSize: 8)
        var second = stores.orders
        var secondDatabase: PostgresDatabase?
        if let postgres = stores.postgres {
            let database = try PostgresDatabase.open(url: try #require(PostgresTestServer.url), poolSize: 8, schema: postgres.schema)
            secondDatabase = database
            second = OrderStore.postgres(database)
        }
        defer { secondDatabase?.close() }
        let servers = [stores.orders, second]
        let chair = try stores.variant("chair").variant
        for round in 0..<20 {
            let shopper = try stores.guest("round-\(round)")
            let order = try #require(try stores.orders.placeOrder(
                OrderFixtures.request(shopper, [(chair, 1)], key: "round-\(round)"), Fixtures.start).placedOrder)
            let applied = Atomic<Int>(0), refused = Atomic<Int>(0)
            let failures = Mutex<[String]>([])
            SessionStoreContractTests.race((0..<4).map { index in {
                do {
                    _ = try servers[index % 2].apply(Self.request(order, .cancel, actor: "staff-\(index)"), Self.later)
                    applied.add(1, ordering: .relaxed)
                } catch is OrderTransitionRefused {
                    refused.add(1, ordering: .relaxed)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            } })
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(applied.load(ordering: .relaxed) == 1 && refused.load(ordering: .relaxed) == 3, "round \(round)")
            #expect(try stores.available("chair") == 8, "round \(round): the chair came back once")
            #expect(try stores.orders.history(order.id).count == 1)
        }
    }

    @Test(arguments: StoreKind.engines(for: .orders))
    func unpaidOrdersPastTheirTimeAreCancelledByTheShopAndPaidOnesAreLeftAlone(kind: StoreKind) throws {
        let (stores, old) = try Self.ordered(kind)  // placed at Fixtures.start: 2 chairs
        let chair = try stores.variant("chair").variant
        let week = TimeInterval(7 * 86_400)
        let paid = try #require(try stores.orders.placeOrder(
            OrderFixtures.request(try stores.guest("payer"), [(chair, 1)], key: "paid"), Fixtures.start).placedOrder)
        _ = try stores.orders.apply(Self.request(paid, .markPaid), Fixtures.start)
        let recent = try #require(try stores.orders.placeOrder(
            OrderFixtures.request(try stores.guest("recent"), [(chair, 1)], key: "recent"), Fixtures.start + week).placedOrder)
        #expect(try stores.available("chair") == 6)

        let now = Fixtures.start + week + 60
        let cancelled = try stores.orders.cancelUnpaid(placedBefore: now - week, now: now) { order in
            OutboxDraft(toAddress: order.email, toName: "", subject: "cancelled \(order.number)", textBody: "…", createdAt: now)
        }.cancelled
        #expect(cancelled.map(\.order.number) == [old.number])
        #expect(try stores.accounts.dueMessages(.distantFuture, 10).map(\.draft.subject) == ["cancelled \(old.number)"],
                "each shopper is told, with the cancel")
        #expect(cancelled.first?.event == OrderEvent(at: now, actor: "shop", action: .cancel, from: .awaitingPayment,
                                                     to: .cancelled, itemsReturned: 2))
        #expect(try stores.available("chair") == 8)
        #expect(try stores.orders.order(paid.number)?.status == .paid)
        #expect(try stores.orders.order(recent.number)?.status == .awaitingPayment)
        #expect(try stores.orders.cancelUnpaid(placedBefore: now - week, now: now).cancelled.isEmpty, "once")

        // Asking for a status the order has left changes nothing.
        #expect(throws: OrderActionError.statusChanged(.paid)) {
            try stores.orders.apply(OrderActionRequest(number: paid.number, action: .cancel, actor: "ana@shop.example",
                                                       expecting: .awaitingPayment), now)
        }
        #expect(try stores.orders.order(paid.number)?.status == .paid)
    }

    /// Staff mark an order paid at the moment the shop cancels it as unpaid: either it is paid
    /// (and stays so, stock kept) or cancelled (and the payment refused) — never cancelled after
    /// being marked paid.
    @Test(arguments: StoreKind.engines(for: .orders))
    func markingPaidWhileTheShopCancelsUnpaidOrdersLeavesOneOutcome(kind: StoreKind) throws {
        let (stores, _) = try Self.ordered(kind, poolSize: 8)
        let orders = stores.orders
        let chair = try stores.variant("chair").variant
        let later = Fixtures.start + 8 * 86_400
        _ = try orders.setStock("CHAIR-1", 100, Fixtures.start)  // paid orders keep theirs
        var outcomes: [OrderStatus: Int] = [:]
        for round in 0..<20 {
            _ = try stores.orders.cancelUnpaid(placedBefore: later, now: later)  // earlier rounds' leftovers
            let order = try #require(try orders.placeOrder(
                OrderFixtures.request(try stores.guest("race-\(round)"), [(chair, 1)], key: "race-\(round)"), Fixtures.start).placedOrder)
            let before = try #require(try stores.available("chair") ?? nil)
            let markedPaid = Mutex<Bool?>(nil)
            SessionStoreContractTests.race([
                { markedPaid.withLock { $0 = (try? orders.apply(Self.request(order, .markPaid, actor: "staff"), later)) != nil } },
                { _ = try? orders.cancelUnpaid(placedBefore: later, now: later) },
            ])
            let status = try #require(try orders.order(order.number)?.status)
            outcomes[status, default: 0] += 1
            let after = try #require(try stores.available("chair") ?? nil)
            switch status {
            case .paid:
                #expect(markedPaid.withLock { $0 } == true)
                #expect(after == before, "round \(round): a paid order keeps its stock")
            case .cancelled:
                #expect(markedPaid.withLock { $0 } == false, "round \(round): cancelled after it was marked paid")
                #expect(after == before + 1)
            default:
                Issue.record("round \(round): \(status)")
            }
        }
        #expect(outcomes.values.reduce(0, +) == 20)
    }

    /// One order whose cancel fails (here: a store error) does not stop the round; it is
    /// reported, and the round's limit bounds the work of one housekeeping tick.
    @Test(arguments: StoreKind.engines(for: .orders))
    func aFailingCancelDoesNotStopTheOthersAndARoundIsBounded(kind: StoreKind) throws {
        let (stores, first) = try Self.ordered(kind)
        let chair = try stores.variant("chair").variant
        let others = try (1...3).map { index in
            try #require(try stores.orders.placeOrder(
                OrderFixtures.request(try stores.guest("other-\(index)"), [(chair, 1)], key: "other-\(index)"),
                Fixtures.start.addingTimeInterval(Double(index))).placedOrder)
        }
        var failing = stores.orders
        let apply = failing.apply
        struct Broken: Error {}
        failing.apply = { request, now in
            if request.number == first.number { throw Broken() }
            return try apply(request, now)
        }
        let later = Fixtures.start + 8 * 86_400
        let bounded = try failing.cancelUnpaid(placedBefore: later, now: later, limit: 3)
        #expect(bounded.failed.map(\.number) == [first.number])
        #expect(bounded.cancelled.map(\.order.number) == others.prefix(2).map(\.number), "the oldest 3, one failed")
        let next = try failing.cancelUnpaid(placedBefore: later, now: later, limit: 3)
        #expect(next.cancelled.map(\.order.number) == [others[2].number] && next.failed.count == 1)
    }
}
