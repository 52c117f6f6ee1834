public import Foundation
public import ShopCore
public import ShopStore

/// A field of an account write that breaks a rule: `field` names it as the API spells it
/// (`email`, `password`, `username`, `name`, `phone`, `address.zipcode`, …).
public struct AccountFieldProblem: Error, Hashable, Sendable {
    /// What is wrong: a rule of the web's account forms, or of the profile fields.
    public enum Problem: Hashable, Sendable {
        case account(AccountFieldError)
        case profile(ProfileFieldError)
    }

    public var field: String
    public var problem: Problem

    /// Creates the problem.
    public init(field: String, _ problem: Problem) {
        self.field = field
        self.problem = problem
    }
}

extension AccountService {
    /// An account's fields as a client writes them (the API's user writes); nil where a request
    /// leaves one out.
    public struct AccountFields: Hashable, Sendable {
        public var email: String?
        public var username: String?
        /// As typed; checked by `PasswordRules`, stored only as its argon2id hash.
        public var password: String?
        /// The full name (the API joins first and last name with a space).
        public var name: String?
        public var phone: String?
        public var address: AddressFields?

        /// Creates the fields.
        public init(email: String? = nil, username: String? = nil, password: String? = nil, name: String? = nil,
                    phone: String? = nil, address: AddressFields? = nil) {
            self.email = email
            self.username = username
            self.password = password
            self.name = name
            self.phone = phone
            self.address = address
        }
    }

    /// An address as a client writes it: nil where the request leaves a part out. A replacing
    /// write (`PUT`) stores a part left out as empty; a merging one (`PATCH`) keeps the stored
    /// part — `{"address": {"city": "Shelbyville"}}` changed the city and emptied the street,
    /// number, zip code and geolocation (a fresh tester).
    public struct AddressFields: Hashable, Sendable {
        public var city: String?
        public var street: String?
        public var number: Int?
        public var zipcode: String?
        public var latitude: String?
        public var longitude: String?

        /// Creates the fields.
        public init(city: String? = nil, street: String? = nil, number: Int? = nil, zipcode: String? = nil,
                    latitude: String? = nil, longitude: String? = nil) {
            self.city = city
            self.street = street
            self.number = number
            self.zipcode = zipcode
            self.latitude = latitude
            self.longitude = longitude
        }

        /// These fields over `base`: each part given replaces `base`'s.
        func applied(to base: AccountProfile.Address) -> AccountProfile.Address {
            AccountProfile.Address(city: city ?? base.city, street: street ?? base.street, number: number ?? base.number,
                                   zipcode: zipcode ?? base.zipcode, latitude: latitude ?? base.latitude,
                                   longitude: longitude ?? base.longitude)
        }
    }

    /// Registers an account from a client's fields with the web's rules (`Registration.validate`:
    /// name, email, password) plus the profile's (`UsernameRules`, `ProfileRules`). Like the web
    /// form, the account starts unverified, its verification email is queued in the same
    /// transaction, and it may sign in at once.
    /// - Parameters:
    ///   - fields: `email`, `password` and `name` are required; the rest may be left out.
    ///   - verificationEmail: the email carrying the raw token's link, given the address, the
    ///     name and the token.
    /// - Throws: `AccountFieldProblem` (nothing stored), `AccountServiceError.emailTaken` or
    ///   `.usernameTaken`, or a store or hashing error.
    public func register(_ fields: AccountFields,
                         verificationEmail: (_ email: String, _ name: String, _ token: String) -> OutboxDraft) throws -> User {
        guard let email = fields.email else { throw AccountFieldProblem(field: "email", .account(.emailInvalid)) }
        guard let password = fields.password else { throw AccountFieldProblem(field: "password", .account(.passwordTooShort(minimum: PasswordRules.minimumLength))) }
        let registration: Registration
        do {
            registration = try Registration.validate(name: fields.name ?? "", email: email, password: password,
                                                     passwordConfirmation: password)
        } catch {
            throw Self.firstProblem(error.byField.map { ($0.key == .name ? "name" : $0.key.rawValue, $0.value) })
        }
        let profile = try Self.profile(fields, current: AccountProfile(), replacing: true)
        let token = crypto.randomToken()
        do {
            return try accounts.register(
                NewAccount(email: registration.email, name: registration.name,
                           passwordHash: try crypto.hashPassword(registration.password), createdAt: now(), profile: profile),
                tokenDraft(.emailVerification, token: token), verificationEmail(registration.email, registration.name, token))
        } catch let error as AccountStoreError {
            throw Self.serviceError(error)
        }
    }

    /// Changes an account: its owner's or, for an operator, anyone's. Only the fields given are
    /// written, in one store transaction, so simultaneous changes of different fields all land.
    ///
    /// - A new password follows `PasswordRules` (checked against the name the account will have)
    ///   and ends every other session of the account — all of them when an operator changes
    ///   someone else's.
    /// - A new email makes the account unverified and queues a verification email to it.
    /// - Parameters:
    ///   - id: the account.
    ///   - fields: the new values.
    ///   - replacing: `true` (PUT): `email` and `name` are required and `username`, `phone` and
    ///     `address` left out are emptied; the password changes only when given. `false` (PATCH):
    ///     only the fields given change.
    ///   - viewer: who asks.
    ///   - session: the session making the change (it stays signed in after a password change).
    ///   - verificationEmail: as for ``register(_:verificationEmail:)``.
    ///   - emailChangedNotice: for a new email, the message telling the address the account
    ///     leaves (given the account as it was and the new address): someone who took the
    ///     account over learns of it there. A changed email also ends the links sent to the old
    ///     address (`AccountUpdatePlan.revokedTokens`).
    /// - Returns: the account after the change.
    /// - Throws: `AccountServiceError.accountNotFound` (also for another shopper's account),
    ///   `AccountFieldProblem`, `.emailTaken`, `.usernameTaken`, or a store or hashing error.
    public func update(_ id: User.ID, _ fields: AccountFields, replacing: Bool, by viewer: User, session: Session.ID?,
                       verificationEmail: (_ email: String, _ name: String, _ token: String) -> OutboxDraft,
                       emailChangedNotice: (_ account: User, _ newEmail: String) -> OutboxDraft) throws -> User {
        let current = try user(id, visibleTo: viewer)
        if replacing {
            if fields.email == nil { throw AccountFieldProblem(field: "email", .account(.emailInvalid)) }
            if fields.name == nil { throw AccountFieldProblem(field: "name", .account(.nameMissing)) }
        }
        var update = AccountUpdate()
        if let email = fields.email {
            do { update.email = try EmailRules.normalize(email) } catch {
                throw AccountFieldProblem(field: "email", .account(error))
            }
        }
        if let name = fields.name {
            let trimmed = TextRules.singleLine(name)
            if trimmed.isEmpty { throw AccountFieldProblem(field: "name", .account(.nameMissing)) }
            if trimmed.count > Registration.maximumNameLength {
                throw AccountFieldProblem(field: "name", .account(.nameTooLong(maximum: Registration.maximumNameLength)))
            }
            update.name = trimmed
        }
        if let password = fields.password {
            let problems = PasswordRules.problems(password, name: update.name ?? current.name)
            if let first = problems.first { throw AccountFieldProblem(field: "password", .account(first)) }
            update.passwordHash = try crypto.hashPassword(password)
            update.keepingSession = viewer.id == id ? session : nil
        }
        let profile = try Self.profile(fields, current: current.profile, replacing: replacing)
        if replacing || fields.username != nil { update.username = .some(profile.username) }
        if replacing || fields.phone != nil { update.phone = profile.phone }
        if replacing || fields.address != nil { update.address = profile.address }
        if let email = update.email, email != current.email {
            let token = crypto.randomToken()
            update.verification = (tokenDraft(.emailVerification, token: token),
                                   verificationEmail(email, update.name ?? current.name, token))
            update.formerAddressNotice = emailChangedNotice(current, email)
        }
        // An operator changing someone else's account is a staff change: audited.
        if viewer.id != id { update.auditedAs = (AuditActor(name: viewer.email, source: .api), now()) }
        do {
            return try accounts.updateUser(id, update)
        } catch let error as AccountStoreError {
            throw Self.serviceError(error)
        }
    }

    /// Deletes an account: its owner's, or anyone's for an operator. Everything only the
    /// account owns goes with it (sessions — so its tokens stop working —, cart, favorites,
    /// address book, API carts); its orders stay for the shop's books, with their email and
    /// address snapshots, no longer linked to an account. The email and username are free again.
    /// - Returns: the account as it was.
    /// - Throws: `AccountServiceError.accountNotFound` (also for another shopper's account),
    ///   `.lastOperator` for the shop's only operator, or a store error.
    public func delete(_ id: User.ID, by viewer: User) throws -> User {
        _ = try user(id, visibleTo: viewer)
        do {
            let audit = viewer.id == id ? nil : (actor: AuditActor(name: viewer.email, source: .api), at: now())
            guard let deleted = try accounts.deleteUser(id, audit) else { throw AccountServiceError.accountNotFound }
            return deleted
        } catch let error as AccountStoreError {
            throw Self.serviceError(error)
        }
    }

    /// The normalized email of the account a sign-in names: `text` itself when it is an email,
    /// else the email of the account whose username it is (nil when none).
    ///
    /// An account stored before emails were composed (NFKC, 55204ac) may hold another form of
    /// the same address — decomposed accents, full-width letters — as it was typed then,
    /// lower-cased: when no account has the composed form and one has that one, it is that
    /// account's. ASCII addresses, nearly all of them, are the same either way.
    /// - Throws: a store error.
    public func signInEmail(_ text: String) throws -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard UsernameRules.isUsername(trimmed) else {
            guard let email = try? EmailRules.normalize(trimmed) else { return nil }
            let asStoredBefore = trimmed.lowercased()
            // Bytes, not `==`: Swift's string equality takes "é" and "e\u{301}" as equal.
            if asStoredBefore.utf8.elementsEqual(email.utf8) { return email }
            if try accounts.credentials(email) != nil { return email }
            return try accounts.credentials(asStoredBefore) != nil ? asStoredBefore : email
        }
        guard (try? UsernameRules.validate(trimmed)) != nil else { return nil }
        return try accounts.userNamed(trimmed)?.email
    }

    // MARK: Rules

    /// The profile the fields make: checked, with what is left out kept (`replacing`: emptied).
    static func profile(_ fields: AccountFields, current: AccountProfile, replacing: Bool) throws(AccountFieldProblem) -> AccountProfile {
        var profile = replacing ? AccountProfile() : current
        if let username = fields.username {
            do { profile.username = try UsernameRules.validate(username) } catch {
                throw AccountFieldProblem(field: "username", .profile(error))
            }
        }
        if let phone = fields.phone {
            do { profile.phone = try ProfileRules.phone(phone) } catch { throw AccountFieldProblem(field: "phone", .profile(error)) }
        }
        if let address = fields.address {
            // `profile` is empty when replacing, the stored profile when merging.
            switch ProfileRules.address(address.applied(to: profile.address)) {
            case let .success(clean): profile.address = clean
            case let .failure(problem): throw AccountFieldProblem(field: "address." + problem.field, .profile(problem.problem))
            }
        }
        return profile
    }

    /// The first problem of a registration, fields in a fixed order.
    private static func firstProblem(_ byField: [(String, [AccountFieldError])]) -> AccountFieldProblem {
        let order = ["name", "email", "password"]
        let sorted = byField.sorted { (order.firstIndex(of: $0.0) ?? 9) < (order.firstIndex(of: $1.0) ?? 9) }
        guard let (field, problems) = sorted.first, let problem = problems.first else {
            return AccountFieldProblem(field: "password", .account(.passwordsDoNotMatch))
        }
        return AccountFieldProblem(field: field, .account(problem))
    }

    private static func serviceError(_ error: AccountStoreError) -> AccountServiceError {
        switch error {
        case .emailTaken: .emailTaken
        case .usernameTaken: .usernameTaken
        case .userNotFound: .accountNotFound
        case .lastOperator: .lastOperator
        }
    }
}
