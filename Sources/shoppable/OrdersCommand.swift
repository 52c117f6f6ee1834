import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopWeb

/// `shoppable orders list [--status S]` and `shoppable orders show NUMBER` (operators, issue #5);
/// `shoppable orders mark-paid|fulfil|mark-delivered|cancel NUMBER` (issue #16): the back
/// office's actions, by the same rules (`OrderStore.apply`), recorded in the order's history as
/// done by `cli`.
enum OrdersCommand {
    /// The actions the command line offers, by their `OrderAction` names.
    static let actions: [OrderAction] = [.markPaid, .fulfil, .markDelivered, .cancel, .refund]

    static func run(_ options: Options) throws {
        guard options.arguments.count >= 2 else {
            throw UsageError("orders needs a subcommand: list, show, " + actions.map(\.rawValue).joined(separator: ", "))
        }
        if let action = actions.first(where: { $0.rawValue == options.arguments[1] }) {
            try apply(action, options)
            return
        }
        let timeZone = try options.timeZone()
        let timeZoneName = options.value("timezone", default: "UTC")!
        switch options.arguments[1] {
        case "list":
            guard options.arguments.count == 2 else { throw UsageError("orders list takes no arguments (filter with --status)") }
            var status: OrderStatus?
            if let text = options.value("status") {
                guard let parsed = OrderStatus(rawValue: text) else {
                    throw UsageError("--status “\(text)” is not a status: use "
                                     + OrderStatus.allCases.map(\.rawValue).joined(separator: ", "))
                }
                status = parsed
            }
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            let found = try database.orders.findOrders(OrderQuery(status: status, limit: 500))
            let orders = found.orders
            if orders.isEmpty { print(status.map { "no orders with status \($0.rawValue)" } ?? "no orders yet") }
            for order in orders { print(OrderSummary.line(order, timeZone: timeZone)) }
            if found.total > orders.count { print("… and \(found.total - orders.count) older orders (the back office pages them all)") }
        case "show":
            guard options.arguments.count == 3 else { throw UsageError("orders show needs exactly one order NUMBER") }
            let number = OrderSummary.number(options.arguments[2])
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            guard let order = try database.orders.order(number) else {
                throw OperatorDataError("no order has the number “\(number)”; `shoppable orders list` shows them all")
            }
            print(OrderSummary.detail(order, history: try database.orders.history(order.id), timeZone: timeZone,
                                      timeZoneName: timeZoneName))
        default:
            throw UsageError("unknown orders subcommand “\(options.arguments[1])”: use list, show, "
                             + actions.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// `orders ACTION NUMBER` (`fulfil` also `--carrier NAME --tracking NUMBER`): one line saying
    /// what changed; a step the order's status does not allow is refused, naming what it allows.
    private static func apply(_ action: OrderAction, _ options: Options) throws {
        if action == .refund {
            guard options.arguments.count >= 4 else {
                throw UsageError("orders refund needs an order NUMBER and at least one LINE=QTY (lines as `orders show` numbers them)")
            }
        } else {
            guard options.arguments.count == 3 else { throw UsageError("orders \(action.rawValue) needs exactly one order NUMBER") }
        }
        let number = OrderSummary.number(options.arguments[2])
        let refundLines = try options.arguments.dropFirst(3).map { text -> LineRefund in
            let parts = text.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let line = Int(parts[0]), let quantity = Int(parts[1]), line > 0, quantity > 0 else {
                throw UsageError("“\(text)” is not LINE=QTY (e.g. 2=1: one unit of line 2)")
            }
            return LineRefund(line: line, quantity: quantity)
        }
        var fulfilment: Fulfilment?
        if action == .fulfil {
            guard let carrier = options.value("carrier"), let tracking = options.value("tracking") else {
                throw UsageError("orders fulfil needs --carrier NAME and --tracking NUMBER")
            }
            do {
                fulfilment = try Fulfilment(carrier: carrier, trackingNumber: tracking)
            } catch {
                throw UsageError("orders fulfil: \(error.description)")
            }
        } else if options.value("carrier") != nil || options.value("tracking") != nil {
            throw UsageError("--carrier and --tracking go with orders fulfil only")
        }
        let database = try openDatabase(options, poolSize: 1)
        defer { database.close() }
        let result: OrderActionResult
        do {
            guard let order = try database.orders.order(number) else { throw OrderActionError.orderNotFound(number) }
            // The shopper's email about the step (in their order's language), queued with it; the
            // step expects the status read here, so the email never describes another step.
            let now = Date()
            let publicURL = options.value("public-url", default: "http://127.0.0.1:8080")!
            let refund = action == .refund ? try order.refundPlan(refundLines) : nil
            let email = OrderEmails.step(action, order: order, fulfilment: fulfilment, refund: refund,
                                         publicURL: publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL, now: now)
            var asked = OrderActionRequest(number: number, action: action, fulfilment: fulfilment, actor: "cli",
                                           expecting: order.status, notification: email)
            asked.refundLines = refundLines
            asked.expectedRefundMinor = refund?.total.minorUnits
            asked.refundedUnitsSeen = action == .refund ? order.refundedUnits : nil
            result = try database.orders.apply(asked, now)
        } catch let refused as RefundError {
            throw OperatorDataError("order \(number): \(refused.description); nothing changed")
        } catch OrderActionError.nothingToShip {
            throw OperatorDataError("order \(number): every unit was refunded, there is nothing to fulfil; nothing changed")
        } catch OrderActionError.refundChanged {
            throw OperatorDataError("order \(number): its refunds changed meanwhile; nothing changed")
        } catch OrderActionError.statusChanged(let status) {
            throw OperatorDataError("order \(number) changed meanwhile: it is now \(status.rawValue); nothing changed")
        } catch OrderActionError.orderNotFound {
            throw OperatorDataError("no order has the number “\(number)”; `shoppable orders list` shows them all")
        } catch let refused as OrderTransitionRefused {
            throw OperatorDataError("order \(number): \(refused.description(offering: actions)); nothing changed")
        }
        print(summary(result))
    }

    /// "order 1042-KX7M: awaiting_payment → cancelled; 2 items back in stock".
    static func summary(_ result: OrderActionResult) -> String {
        let event = result.event
        var text = "order \(result.order.number): " + (event.from == event.to ? event.to.rawValue : "\(event.from.rawValue) → \(event.to.rawValue)")
        if let fulfilment = event.fulfilment { text += " (\(fulfilment.carrier), tracking \(fulfilment.trackingNumber))" }
        if event.itemsReturned > 0 { text += "; \(event.itemsReturned) item\(event.itemsReturned == 1 ? "" : "s") back in stock" }
        if event.refundedMinor > 0 {
            text += "; refund of \(OrderSummary.amount(Money(minorUnits: event.refundedMinor, currency: result.order.total.currency))) recorded"
        }
        return text
    }
}

/// `shoppable stock set SKU QTY`: sets a variant's stock (and makes it tracked).
enum StockCommand {
    /// The largest count `stock set` accepts.
    static let maximumQuantity = VariantDraft.maximumStock

    static func run(_ options: Options) throws {
        guard options.arguments.count >= 2 else { throw UsageError("stock needs a subcommand: set") }
        guard options.arguments[1] == "set" else {
            throw UsageError("unknown stock subcommand “\(options.arguments[1])”: use set")
        }
        guard options.arguments.count == 4 else { throw UsageError("stock set needs a SKU and a quantity: stock set SKU QTY") }
        let sku = options.arguments[2].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !sku.isEmpty else { throw UsageError("stock set needs a SKU (it is empty)") }
        let text = options.arguments[3]
        guard text.allSatisfy(\.isASCII), let quantity = Int(text), (0...maximumQuantity).contains(quantity) else {
            throw UsageError("the quantity “\(text)” is not a whole number from 0 to \(maximumQuantity)")
        }
        let database = try openDatabase(options, poolSize: 1)
        defer { database.close() }
        let update = try database.orders.setStock(sku, quantity, Date())
        guard update.variants > 0 else {
            throw OperatorDataError("no variant has the SKU “\(sku)” (SKUs are case-sensitive); nothing changed")
        }
        print("stock of \(sku) set to \(quantity)" + (update.variants == 1 ? "" : " (\(update.variants) variants share this SKU)"))
        if update.trimmedHolds > 0 {
            // Shoppers at checkout held more than is left: the latest holds gave way.
            print("\(update.trimmedHolds) checkout hold\(update.trimmedHolds == 1 ? " was" : "s were") trimmed to fit, latest first")
        }
    }
}

/// A command that named something the database does not have (an order number, a SKU): printed
/// without the usage hint, exit status 65 (EX_DATAERR).
struct OperatorDataError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Orders as text for the terminal.
enum OrderSummary {
    /// An order number as typed: trimmed and upper-cased (numbers are digits and upper-case
    /// letters, and are often copied from an email or typed by hand in lower case).
    static func number(_ typed: String) -> String {
        typed.trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// `1042-KX7M  2026-11-30 14:05  ada@example.com  59.80 USD  awaiting_payment` (tab-separated).
    static func line(_ order: Order, timeZone: TimeZone) -> String {
        [order.number, date(order.placedAt, timeZone: timeZone), order.email, amount(order.total), order.status.rawValue]
            .joined(separator: "\t")
    }

    /// The whole order: status, customer, address, shipping, each line and the totals.
    static func detail(_ order: Order, history: [OrderEvent] = [], timeZone: TimeZone, timeZoneName: String) -> String {
        var text: [String] = []
        func field(_ name: String, _ value: String) {
            text.append(name.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
        }
        field("Order", order.number)
        field("Status", order.status.rawValue)
        field("Placed", date(order.placedAt, timeZone: timeZone) + " (\(timeZoneName))")
        field("Email", order.email + (order.userID.map { " (account \($0.rawValue))" } ?? " (guest)"))
        let address = order.shippingAddress
        for (index, line) in address.lines.enumerated() { field(index == 0 ? "Ship to" : "", line) }
        if !address.phone.isEmpty { field("Phone", address.phone) }
        field("Delivery", order.shippingMethodName)
        if let fulfilment = order.fulfilment { field("Carrier", "\(fulfilment.carrier), tracking \(fulfilment.trackingNumber)") }
        for (index, event) in history.enumerated() {
            var step = "\(date(event.at, timeZone: timeZone))  \(event.action.rawValue) by \(event.actor): "
                + "\(event.from.rawValue) → \(event.to.rawValue)"
            if event.itemsReturned > 0 { step += "; \(event.itemsReturned) item\(event.itemsReturned == 1 ? "" : "s") back in stock" }
            if event.refundedMinor > 0 {
                step += "; refund of \(amount(Money(minorUnits: event.refundedMinor, currency: order.total.currency))) owed"
            }
            field(index == 0 ? "History" : "", step)
        }
        text.append("")

        // Lines are numbered from 1: what `orders refund NUMBER LINE=QTY` names.
        let header = ["#", "SKU", "Item", "Unit price", "Qty", "Discount", "Line total", "Refunded"]
        var rows = [header]
        for (index, line) in order.lines.enumerated() {
            let item = line.variantTitle.isEmpty ? line.title : "\(line.title) (\(line.variantTitle))"
            rows.append([String(index + 1), line.sku ?? "-", item, amount(line.unitPrice), String(line.quantity),
                         line.discount.isZero ? "-" : "-" + amount(line.discount), amount(line.total),
                         line.refundedQuantity == 0 ? "-" : "\(line.refundedQuantity) (\(amount(line.refunded)))"])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 4, 5, 6, 7]
        for row in rows {
            text.append(row.indices.map { column in
                let cell = row[column]
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces))
        }
        text.append("")
        field("Subtotal", amount(order.subtotal))
        if !order.discount.isZero || order.voucherCode != nil {
            field("Discount", "-" + amount(order.discount) + (order.voucherCode.map { " (voucher \($0))" } ?? ""))
        }
        field("Shipping", amount(order.shippingCost))
        field("Total", amount(order.total))
        // Everything refunded — the lines' refunds and a paid order's cancel — as the order
        // pages show it (`Order.refundedInAll`).
        let refunded = order.refundedInAll(history: history)
        if !refunded.isZero { field("Refunded", amount(refunded)) }
        return text.joined(separator: "\n")
    }

    /// `59.80 USD`: exact minor units, no locale.
    static func amount(_ money: Money) -> String { "\(money.decimalString) \(money.currency.code)" }

    static func date(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
