public import Observation
public import ShopAPI
public import ShopCore
import ShopClient

/// The registration screen, then the verification email's state.
///
/// Inputs: ``name``, ``email``, ``password``, ``passwordConfirmation``, ``register()``;
/// afterwards ``resendVerificationEmail()`` and ``confirmEmail(token:)`` (the emailed link's
/// token, from a universal link). Outputs: ``errors(for:)`` as the shopper types — ShopCore's
/// `Registration.validate` in ShopCore's words (`AccountFieldError.message(in:)`), the very
/// function and texts the server answers with — then ``stage`` and ``verification``.
///
/// Registering signs in (the credentials go to `ShopOperations.setCredentials`), so the
/// verification email can be sent again and the cart follows the new account.
@MainActor
@Observable
public final class RegisterModel {
    /// Where registration is.
    public enum Stage: Hashable, Sendable {
        /// The form.
        case form
        /// Sent; no answer yet.
        case registering
        /// Registered and signed in, as `account`.
        case registered(V1Account)
        /// The shop refused for a reason no field shows (too many attempts), with its message.
        case failed(String)
        /// The shop could not be reached.
        case offline
    }

    /// Where the email address's verification is.
    public enum Verification: Hashable, Sendable {
        /// Not verified; the email was sent at registration.
        case unverified
        /// Asking for the email again.
        case sending
        /// Sent again; the shop's message.
        case sent(String)
        /// Checking the emailed token.
        case confirming
        /// Verified.
        case verified
        /// Refused (an invalid or used link, too many emails), with the message.
        case failed(String)
    }

    /// The name as typed.
    public var name = ""
    /// The email as typed; a change clears the server's "taken" message.
    public var email = "" { didSet { if email != oldValue { emailTaken = false } } }
    /// The password as typed.
    public var password = ""
    /// The password again.
    public var passwordConfirmation = ""
    /// The language of the messages.
    public var language: Language
    /// Where registration is.
    public private(set) var stage: Stage = .form
    /// Where the verification is (meaningful once registered).
    public private(set) var verification: Verification = .unverified
    /// `true` after "Create account" was pressed: empty fields then show their problems too.
    public private(set) var submitted = false
    /// The server said the email has an account.
    private var emailTaken = false

    @ObservationIgnored private let shop: ShopOperations
    /// The app's connectivity: every request reports to it; registering waits for the network.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, its messages in `language`, its requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.connectivity = connectivity
    }

    /// Every field's problems by ShopCore's rules (before the first submit, only of fields
    /// typed in), plus the server's "email taken"; none once registered.
    public var problems: [Registration.Field: [AccountFieldError]] {
        if case .registered = stage { return [:] }
        var problems: [Registration.Field: [AccountFieldError]] = [:]
        do {
            _ = try Registration.validate(name: name, email: email, password: password,
                                          passwordConfirmation: passwordConfirmation)
        } catch {
            problems = error.byField
        }
        if !submitted {
            let typed: [Registration.Field: String] = [.name: name, .email: email, .password: password,
                                                       .passwordConfirmation: passwordConfirmation]
            problems = problems.filter { !(typed[$0.key] ?? "").isEmpty }
        }
        if emailTaken { problems[.email, default: []].append(.emailTaken) }
        return problems
    }

    /// The messages `field` shows now, in ``language``.
    public func errors(for field: Registration.Field) -> [String] {
        (problems[field] ?? []).map { $0.message(in: language) }
    }

    /// Whether the form may be sent (every rule holds; not already sending).
    public var canRegister: Bool {
        connectivity.isOnline && stage != .registering && (try? Registration.validate(name: name, email: email, password: password,
                                                             passwordConfirmation: passwordConfirmation)) != nil
            && !emailTaken
    }

    /// Registers, then signs in. A taken email shows on the email field.
    public func register() async {
        submitted = true
        guard canRegister else { return }
        stage = .registering
        do {
            let account = try await connectivity.send { [shop, email, password, name] in try await shop.register(email, password, name) }
            shop.setCredentials(try await connectivity.send { [shop, email, password] in try await shop.signIn(email, password) })
            password = ""
            passwordConfirmation = ""
            stage = .registered(account)
            verification = account.verified ? .verified : .unverified
        } catch {
            let error = NetworkError(error)
            switch error {
            case .offline: stage = .offline
            case .serverError(_, code: "email_taken", _):
                emailTaken = true
                stage = .form
            default: stage = .failed(error.message)
            }
        }
    }

    /// Sends the verification email again.
    public func resendVerificationEmail() async {
        guard case .registered = stage else { return }
        verification = .sending
        do {
            verification = .sent(try await connectivity.send { [shop] in try await shop.resendVerificationEmail() }.message)
        } catch {
            verification = .failed(NetworkError(error).message)
        }
    }

    /// Confirms the address with the emailed link's `token`.
    public func confirmEmail(token: String) async {
        verification = .confirming
        do {
            let account = try await connectivity.send { [shop] in try await shop.confirmEmail(token) }
            if case .registered = stage { stage = .registered(account) }
            verification = account.verified ? .verified : .unverified
        } catch {
            verification = .failed(NetworkError(error).message)
        }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        var lines: [String]
        switch stage {
        case let .registered(account): lines = ["[Register] registered \(account.email) (\(account.name)) — verification: \(verification)"]
        default: lines = ["[Register] \(stage)"]
        }
        for field in Registration.Field.allCases {
            let errors = errors(for: field)
            if !errors.isEmpty { lines.append("  \(field.rawValue): \(errors.joined(separator: " "))") }
        }
        return lines.joined(separator: "\n")
    }
}
