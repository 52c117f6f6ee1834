import Foundation
import ShopService
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopWeb
import ShopWebLive

/// `shoppable users create [--operator] --email … --name …` (password prompted without echo, or
/// read from standard input when it is not a terminal) and `shoppable users list`.
enum UsersCommand {
    static func run(_ options: Options) throws {
        guard options.arguments.count >= 2 else { throw UsageError("users needs a subcommand: create or list") }
        let database = try openDatabase(options, poolSize: 1)
        defer { database.close() }
        let accounts = database.accounts
        switch options.arguments[1] {
        case "list":
            let users = try accounts.users()
            if users.isEmpty { print("no accounts yet") }
            let dates = ISO8601DateFormatter()
            for user in users {
                print("\(user.id.rawValue)\t\(user.email)\t\(user.name)\t\(user.isVerified ? "verified" : "unverified")\t\(user.role.rawValue)\t\(dates.string(from: user.createdAt))")
            }
        case "create":
            guard let emailText = options.value("email"), let name = options.value("name") else {
                throw UsageError("users create needs --email and --name")
            }
            let password = try PasswordPrompt.read(prompt: "Password for \(emailText): ")
            let registration: Registration
            do {
                registration = try Registration.validate(name: name, email: emailText, password: password,
                                                         passwordConfirmation: password)
            } catch {
                let english = Localizer()
                let messages = error.byField.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue): \($0.value.map(english.message(for:)).joined(separator: " "))" }
                throw UsageError("cannot create the account — " + messages.joined(separator: "; "))
            }
            do {
                var account = NewAccount(email: registration.email, name: registration.name,
                                         passwordHash: try Crypto.sodium().hashPassword(registration.password), createdAt: Date(),
                                         role: options.has("operator") ? .operator : .shopper)
                account.createdBy = .cli
                let user = try accounts.createUser(account, options.has("unverified") == false)
                print("created \(user.isOperator ? "operator " : "")account \(user.id.rawValue) for \(user.email)"
                    + (user.isVerified ? " (verified)" : ""))
            } catch AccountStoreError.emailTaken {
                throw OperatorDataError("an account with \(registration.email) already exists")
            }
        default:
            throw UsageError("unknown users subcommand “\(options.arguments[1])”: use create or list")
        }
    }
}

/// Reads a password from the terminal without echoing it, or a line from standard input when it
/// is not a terminal (scripts: `echo "$PASSWORD" | shoppable users create …`).
enum PasswordPrompt {
    static func read(prompt: String) throws -> String {
        let isTerminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if isTerminal {
            FileHandle.standardError.write(Data(prompt.utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard let line = readLine(strippingNewline: true) else { throw UsageError("no password given on standard input") }
        return line
    }
}
