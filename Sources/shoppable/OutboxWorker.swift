import Foundation
import Mailer
import ShopCore
import ShopStore

/// Delivers queued emails in the background (DESIGN.md §3): a request only writes the message to
/// the `outbox` table in its own transaction; this worker sends it, so a slow or broken SMTP
/// server never slows a page and a crash loses nothing. Failed attempts are retried with growing
/// pauses (30 s, 1 min, 2 min, … at most 1 h; a day after a permanent refusal such as a 5xx reply).
final class OutboxWorker: @unchecked Sendable {
    private let accounts: AccountStore
    private let transport: MailTransport
    private let sender: EmailAddress
    private let log: @Sendable (String) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopping = false

    /// How often the table is checked when nothing wakes the worker, in seconds.
    let pollInterval: Double
    /// Other periodic chores (sweeping expired stock reservations and sessions), run about once a
    /// minute on the same thread.
    var housekeeping: (@Sendable () -> Void)?
    private var lastHousekeeping = Date.distantPast

    init(accounts: AccountStore, transport: MailTransport, sender: EmailAddress, pollInterval: Double = 1,
         log: @escaping @Sendable (String) -> Void) {
        self.accounts = accounts
        self.transport = transport
        self.sender = sender
        self.pollInterval = pollInterval
        self.log = log
    }

    /// Starts the delivery thread.
    func start() {
        let thread = Thread { [self] in
            while !isStopping {
                deliverDue()
                if let housekeeping, Date().timeIntervalSince(lastHousekeeping) >= 60 {
                    lastHousekeeping = Date()
                    housekeeping()
                }
                _ = wakeUp.wait(timeout: .now() + pollInterval)
            }
            finished.signal()
        }
        thread.name = "outbox"
        thread.start()
    }

    /// Stops after the message being sent, if any; returns when the thread has finished.
    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        wakeUp.signal()
        finished.wait()
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Sends every message that is due now.
    func deliverDue() {
        do {
            // Taken for five minutes: another server's worker skips them; one that stops mid-send
            // leaves them to be taken again after that.
            let now = Date()
            for message in try accounts.claimDueMessages(now, 20, now.addingTimeInterval(300)) where !isStopping {
                let email = EmailMessage(
                    from: sender, to: [EmailAddress(message.draft.toAddress, displayName: message.draft.toName)],
                    subject: message.draft.subject, textBody: message.draft.textBody, htmlBody: message.draft.htmlBody,
                    messageID: "outbox-\(message.id.rawValue)@shoppable", date: message.draft.createdAt)
                do {
                    try transport.send(email)
                    try accounts.markSent(message.id, Date())
                    log("outbox: sent message \(message.id.rawValue) to \(message.draft.toAddress)")
                } catch {
                    // A refusal that will not change (bad address, 5xx) is retried only daily.
                    let permanent = (error as? MailError)?.isPermanent ?? false
                    let pause = permanent ? 86_400 : min(30 * pow(2, Double(message.attempts)), 3600)
                    try accounts.markFailed(message.id, "\(error)", Date().addingTimeInterval(pause))
                    log("outbox: message \(message.id.rawValue) to \(message.draft.toAddress) failed (attempt \(message.attempts + 1)): \(error); retrying in \(Int(pause)) s")
                }
            }
        } catch {
            log("outbox: cannot read the outbox: \(error)")
        }
    }
}
