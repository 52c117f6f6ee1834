public import ShopCore

/// What an `AccountUpdate` writes, decided once for every engine (issue #15: the SQLite and
/// PostgreSQL account stores each decided it): the `users` columns and their values, whether
/// sessions end, and whether a verification is stored and sent. Each store writes the plan in its
/// own SQL; the rules are here.
///
/// ```swift
/// let plan = update.plan(changesEmail: storedEmail != update.email)
/// for assignment in plan.assignments { … "\(assignment.column) = ?" … }
/// if plan.endsSessions { … delete the account's sessions but plan.keepingSession … }
/// for purpose in plan.revokedTokens { … delete the account's unused tokens of purpose … }
/// ```
public struct AccountUpdatePlan: Sendable {
    /// A value of a `users` column, in the neutral form both engines bind.
    public enum Value: Hashable, Sendable {
        case text(String)
        case integer(Int64)
        case null
    }

    /// One `column = value` of the `UPDATE users`, in a fixed order.
    public struct Assignment: Hashable, Sendable {
        public var column: String
        public var value: Value

        public init(column: String, value: Value) {
            self.column = column
            self.value = value
        }
    }

    /// The columns to set; empty when nothing in the row changes.
    public var assignments: [Assignment] = []
    /// A new password: every session of the account ends but `keepingSession`.
    public var endsSessions = false
    /// The session that stays signed in when `endsSessions`.
    public var keepingSession: Session.ID?
    /// The token to store and the email to queue (a changed email with a verification).
    public var verification: (token: TokenDraft, email: OutboxDraft)?
    /// The purposes whose unused tokens stop working, deleted before `verification` is stored: a
    /// changed email ends every link sent to the old address (a reset link there would hand the
    /// account to whoever still reads that mailbox), a new password ends the reset links.
    public var revokedTokens: [TokenPurpose] = []
    /// The email to queue to the address the account leaves (a changed email only).
    public var formerAddressNotice: OutboxDraft?
}

extension AccountUpdate {
    /// The plan of this update.
    /// - Parameter changesEmail: `true` when `email` differs from the stored address (the store
    ///   compares them its own way, inside its transaction). Only then is the email written, the
    ///   account made unverified again and the verification stored and sent.
    public func plan(changesEmail: Bool) -> AccountUpdatePlan {
        var plan = AccountUpdatePlan()
        func set(_ column: String, _ value: AccountUpdatePlan.Value) {
            plan.assignments.append(AccountUpdatePlan.Assignment(column: column, value: value))
        }
        if changesEmail, let email {
            set("email", .text(email))
            set("email_verified_at", .null)
            plan.verification = verification
            plan.revokedTokens = [.passwordReset, .emailVerification]
            plan.formerAddressNotice = formerAddressNotice
        }
        if let name { set("name", .text(name)) }
        if let username { set("username", username.map(AccountUpdatePlan.Value.text) ?? .null) }
        if let phone { set("phone", .text(phone)) }
        if let address {
            set("address_city", .text(address.city))
            set("address_street", .text(address.street))
            set("address_number", .integer(Int64(address.number)))
            set("address_zipcode", .text(address.zipcode))
            set("address_lat", .text(address.latitude))
            set("address_long", .text(address.longitude))
        }
        if let passwordHash {
            set("password_hash", .text(passwordHash))
            plan.endsSessions = true
            plan.keepingSession = keepingSession
            if !plan.revokedTokens.contains(.passwordReset) { plan.revokedTokens.append(.passwordReset) }
        }
        if let locale { set("locale", .text(locale.rawValue)) }
        return plan
    }
}
