public import Observation
public import ShopCore
import ShopAPI
import ShopClient

/// The sign-in screen and its "forgot password" flow.
///
/// Inputs: ``email``, ``password``, ``signIn()``; ``requestPasswordReset()``; with the emailed
/// token, ``newPassword`` and ``resetPassword(token:)``. Outputs: ``emailError`` and
/// ``newPasswordErrors`` as the shopper types — ShopCore's rules (`EmailRules`,
/// `PasswordRules`) in ShopCore's words (`AccountFieldError.message(in:)`), exactly what the
/// server answers — and ``status`` / ``reset``.
@MainActor
@Observable
public final class SignInModel {
    /// Where signing in is.
    public enum Status: Hashable, Sendable {
        /// The form, not sent (or sent and refused: see ``failed(_:)``).
        case editing
        /// Sent; no answer yet.
        case signingIn
        /// Signed in: the credentials are stored (`ShopOperations.setCredentials`).
        case signedIn
        /// Refused (wrong password, too many attempts), with the server's message.
        case failed(String)
        /// The shop could not be reached.
        case offline
    }

    /// Where a password reset is.
    public enum ResetStatus: Hashable, Sendable {
        /// Nothing asked.
        case idle
        /// The request for a reset email is on its way.
        case requesting
        /// The shop accepted it; its message ("If an account exists, we sent …").
        case requested(String)
        /// The new password is on its way.
        case resetting
        /// The password is changed; the shopper signs in with it.
        case done
        /// Refused (an invalid or used link, a rule), with the message.
        case failed(String)
        /// The shop could not be reached.
        case offline
    }

    /// The email as typed.
    public var email = ""
    /// The password as typed.
    public var password = ""
    /// The new password of a reset, as typed.
    public var newPassword = ""
    /// The language of the messages.
    public var language: Language
    /// Where signing in is.
    public private(set) var status: Status = .editing
    /// Where a password reset is.
    public private(set) var reset: ResetStatus = .idle

    @ObservationIgnored private let shop: ShopOperations
    /// The app's connectivity: every request reports to it; sending waits for the network.
    @ObservationIgnored public let connectivity: Connectivity

    /// The model over `shop`, its messages in `language`, its requests reported to `connectivity`.
    public init(shop: ShopOperations, language: Language = .english, connectivity: Connectivity = .manual()) {
        self.shop = shop
        self.language = language
        self.connectivity = connectivity
    }

    /// The email's problem as the shopper types (nil while empty or acceptable).
    public var emailError: String? {
        guard !email.isEmpty else { return nil }
        do { _ = try EmailRules.normalize(email) } catch { return error.message(in: language) }
        return nil
    }

    /// Whether "Sign in" is enabled.
    public var canSignIn: Bool { connectivity.isOnline && !email.isEmpty && emailError == nil && !password.isEmpty && status != .signingIn }

    /// The new password's problems as the shopper types (the reset form's rules).
    public var newPasswordErrors: [String] {
        guard !newPassword.isEmpty else { return [] }
        return PasswordRules.problems(newPassword, name: "").map { $0.message(in: language) }
    }

    /// Signs in and stores the credentials; ``status`` says how it went.
    public func signIn() async {
        guard canSignIn else { return }
        status = .signingIn
        do {
            let credentials = try await connectivity.send { [shop, email, password] in try await shop.signIn(email, password) }
            shop.setCredentials(credentials)
            password = ""
            status = .signedIn
        } catch {
            status = Self.status(NetworkError(error))
        }
    }

    /// Asks for a password reset email to ``email``.
    public func requestPasswordReset() async {
        guard !email.isEmpty, emailError == nil else { return }
        reset = .requesting
        do {
            reset = .requested(try await connectivity.send { [shop, email] in try await shop.requestPasswordReset(email) }.message)
        } catch {
            reset = Self.resetStatus(NetworkError(error))
        }
    }

    /// Sets ``newPassword`` with the emailed `token`.
    public func resetPassword(token: String) async {
        guard !newPassword.isEmpty, newPasswordErrors.isEmpty else { return }
        reset = .resetting
        do {
            try await connectivity.send { [shop, newPassword] in try await shop.resetPassword(token, newPassword) }
            newPassword = ""
            reset = .done
        } catch {
            reset = Self.resetStatus(NetworkError(error))
        }
    }

    private static func status(_ error: NetworkError) -> Status {
        if case .offline = error { .offline } else { .failed(error.message) }
    }

    private static func resetStatus(_ error: NetworkError) -> ResetStatus {
        if case .offline = error { .offline } else { .failed(error.message) }
    }

    /// The screen as text (the tour prints it).
    public var snapshot: String {
        var lines = ["[Sign in] \(email.isEmpty ? "(no email)" : email) — \(status)"]
        if let emailError { lines.append("  email: \(emailError)") }
        if reset != .idle { lines.append("  password reset: \(reset)") }
        return lines.joined(separator: "\n")
    }
}
