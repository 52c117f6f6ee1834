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
        guard options.arguments.count >= 2 else { throw UsageError("staff needs a subcommand: create, list, set-role or remove") }
        let expected = ["set-role": 4, "remove": 3][options.arguments[1]] ?? 2
        guard options.arguments.count == expected else {
            let message = switch options.arguments[1] {
            case "set-role": "staff set-role needs an EMAIL and a ROLE (owner, manager or support)"
            case "remove": "staff remove needs exactly one EMAIL"
            default: "staff \(options.arguments[1]) takes no arguments besides its options"
            }
            throw UsageError(message)
        }
        switch options.arguments[1] {
        case "set-role", "remove":
            let email = options.arguments[2].trimmingCharacters(in: .whitespaces).lowercased()
            var role: StaffRole?
            if options.arguments[1] == "set-role" {
                guard let parsed = StaffRole(rawValue: options.arguments[3]) else {
                    throw UsageError("“\(options.arguments[3])” is not a role: use owner, manager or support")
                }
                role = parsed
            }
            let database = try openDatabase(options, poolSize: 1)
            defer { database.close() }
            guard let member = try database.staff.credentials(email)?.member else {
                throw OperatorDataError("no staff account has the email \(email); `shoppable staff list` shows them")
            }
            do {
                if let role {
                    _ = try database.staff.setRole(member.id, role, .cli, Date())
                    print("\(email) is now \(role.rawValue)")
                } else {
                    try database.staff.remove(member.id, .cli, Date())
                    print("removed \(email); their sessions have ended")
                }
            } catch StaffStoreError.lastOwner {
                throw OperatorDataError("\(email) is the shop's only owner; make another owner first")
            }
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
            throw UsageError("unknown staff subcommand “\(options.arguments[1])”: use create, list, set-role or remove")
        }
    }
}
