import Foundation
import ShopCore
import ShopService
import ShopStore
import ShopWeb
import ShopWebLive

/// `shoppable staff create --email … --name … --role owner|manager|support` (password prompted
/// without echo, or read from standard input) and `shoppable staff list` (issue #16): the
/// back office's accounts, signed in at `/admin`.
enum StaffCommand {
    static func run(_ options: Options) throws {
        guard options.arguments.count == 2 else {
            throw UsageError(options.arguments.count < 2 ? "staff needs one subcommand: create or list"
                             : "staff \(options.arguments[1]) takes no arguments besides its options")
        }
        switch options.arguments[1] {
        case "list":
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            let members = try database.staff.members()
            if members.isEmpty { print("no staff accounts yet: shoppable staff create --email … --name … --role owner") }
            let dates = ISO8601DateFormatter()
            for member in members {
                print("\(member.id.rawValue)\t\(member.email)\t\(member.name)\t\(member.role.rawValue)\t\(dates.string(from: member.createdAt))")
            }
        case "create":
            guard let email = options.value("email"), let name = options.value("name"), let roleText = options.value("role") else {
                throw UsageError("staff create needs --email, --name and --role (owner, manager or support)")
            }
            guard let role = StaffRole(rawValue: roleText) else {
                throw UsageError("--role “\(roleText)” is not a role: use owner, manager or support")
            }
            let languageText = options.value("language", default: "en")!
            guard let language = Language(rawValue: languageText) else {
                throw UsageError("--language “\(languageText)” is not a language of the back office: use en, tr or es")
            }
            let password = try PasswordPrompt.read(prompt: "Password for \(email): ")
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            let crypto = Crypto.sodium()
            let service = StaffService(staff: database.staff, accounts: database.accounts, crypto: crypto, now: Date.init,
                                       dummyPasswordHash: DummyPasswordHash(crypto: crypto))
            do {
                let member = try service.create(email: email, name: name, role: role, password: password, language: language)
                print("created \(member.role.rawValue) \(member.email) (staff \(member.id.rawValue)); sign in at /admin")
            } catch let errors as StaffFormErrors {
                let english = Localizer()
                let messages = errors.byField.sorted { $0.key < $1.key }
                    .map { "\($0.key): \($0.value.map(english.message(for:)).joined(separator: " "))" }
                throw UsageError("cannot create the staff account — " + messages.joined(separator: "; "))
            } catch StaffStoreError.emailTaken {
                throw OperatorDataError("a staff account with \(email.lowercased()) already exists")
            }
        default:
            throw UsageError("unknown staff subcommand “\(options.arguments[1])”: use create or list")
        }
    }
}
