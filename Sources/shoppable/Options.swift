import Foundation
import ShopCore

/// Command-line options: flags, then `SHOPPABLE_*` environment variables, then defaults.
struct Options {
    var arguments: [String] = []
    private var flags: [String: String] = [:]
    private var switches: Set<String> = []

    /// Flags that take no value.
    static let switchNames: Set<String> = ["dry-run", "merge-duplicate-skus", "no-demo", "help", "unverified", "operator",
                                           "fetch-images", "replace"]

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-h" {
                switches.insert("help")
            } else if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    flags[String(name[..<equals])] = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                } else if Options.switchNames.contains(name) {
                    switches.insert(name)
                } else {
                    index += 1
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    flags[name] = arguments[index]
                }
            } else {
                self.arguments.append(argument)
            }
            index += 1
        }
    }

    func has(_ name: String) -> Bool { switches.contains(name) }

    /// `--name` value, else `SHOPPABLE_NAME`, else `defaultValue`.
    func value(_ name: String, default defaultValue: String? = nil) -> String? {
        if let flag = flags[name] { return flag }
        let variable = "SHOPPABLE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        if let environment = ProcessInfo.processInfo.environment[variable], !environment.isEmpty { return environment }
        return defaultValue
    }

    func int(_ name: String, default defaultValue: Int) throws -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), number >= 0 else { throw UsageError("--\(name) must be a whole number, got “\(text)”") }
        return number
    }

    /// Where `--database` (or `SHOPPABLE_DATABASE`) says the shop's data lives; see ``DatabaseLocation``.
    var database: DatabaseLocation {
        get throws(UsageError) { try DatabaseLocation.parse(value("database", default: "var/shoppable.sqlite3")!) }
    }

    func currency() throws -> Currency {
        do { return try Currency(code: value("currency", default: "USD")!) } catch { throw UsageError(error.description) }
    }

    /// `--cors-origin ORIGIN[,ORIGIN…]`: the web origins whose pages may call the JSON API
    /// (`https://app.example`, `http://localhost:3000`), or `*` for any.
    /// - Throws: `UsageError` for a value that is not `*` or `scheme://host[:port]` (no path).
    func corsOrigins() throws -> [String] {
        let origins = (value("cors-origin") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for origin in origins where origin != "*" {
            guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil else {
                throw UsageError("--cors-origin: “\(origin)” is not an origin like https://app.example (or *)")
            }
        }
        return origins
    }

    /// `--locale en|tr|es`: the shop's default language (default English).
    /// - Throws: `UsageError` for a language the shop does not speak.
    func language() throws -> Language {
        let code = value("locale", default: "en")!
        guard let language = Language(rawValue: code.lowercased()) else {
            throw UsageError("--locale “\(code)” is not one of the shop's languages: en, tr, es")
        }
        return language
    }

    func timeZone() throws -> TimeZone {
        let name = value("timezone", default: "UTC")!
        guard let zone = TimeZone(identifier: name) else { throw UsageError("--timezone “\(name)” is not a time zone such as Europe/Istanbul") }
        return zone
    }

    /// Names of flags given that are not in `known`, for a clear error.
    func unknownFlags(known: Set<String>) -> [String] {
        (Set(flags.keys).union(switches)).subtracting(known).sorted()
    }
}

/// A mistake on the command line; printed with the usage hint, exit status 64.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where the shop's data lives, as `--database` (or `SHOPPABLE_DATABASE`) says.
enum DatabaseLocation: Equatable, CustomStringConvertible {
    /// A SQLite file (`":memory:"` for a private in-memory database).
    case sqlite(path: String)
    /// A PostgreSQL server: a `postgres://` or `postgresql://` URL, given to libpq as it is
    /// (TLS and other options in its query: `?sslmode=verify-full&sslrootcert=…`).
    case postgres(url: String)

    /// Parses a plain path (`var/shop.sqlite3`, `/srv/shop.db`), a URL `sqlite:PATH`,
    /// `sqlite://PATH` or `sqlite:///ABSOLUTE/PATH`, or a `postgres://` / `postgresql://` URL.
    /// Any other scheme is refused, naming only the scheme, so a password in the URL never
    /// reaches a message or a file name.
    /// - Throws: `UsageError` for an empty value, another scheme, or a URL without a path or host.
    static func parse(_ text: String) throws(UsageError) -> DatabaseLocation {
        guard !text.isEmpty else { throw UsageError("--database needs a SQLite file path or a postgres:// URL") }
        guard let scheme = Self.scheme(of: text) else { return .sqlite(path: text) }
        if scheme == "postgres" || scheme == "postgresql" {
            guard text.dropFirst(scheme.count + 1).hasPrefix("//") else {
                throw UsageError("--database: a PostgreSQL database is a URL such as postgres://user@host/shop")
            }
            return .postgres(url: text)
        }
        guard scheme == "sqlite" || scheme == "sqlite3" else {
            throw UsageError("--database: “\(scheme):” databases cannot be opened; give a SQLite file path, a sqlite: URL "
                             + "or a postgres:// URL")
        }
        var path = String(text.dropFirst(scheme.count + 1))
        if path.hasPrefix("//") { path.removeFirst(2) }  // sqlite://relative, sqlite:///absolute
        guard !path.isEmpty else { throw UsageError("--database: the sqlite: URL names no file") }
        return .sqlite(path: path)
    }

    /// For messages and logs: the SQLite path, or the PostgreSQL URL without its password and
    /// query (which may carry one too).
    var description: String {
        switch self {
        case let .sqlite(path): return path
        case let .postgres(url):
            var shown = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            if let schemeEnd = shown.range(of: "://"), let at = shown[schemeEnd.upperBound...].lastIndex(of: "@"),
               let colon = shown[schemeEnd.upperBound..<at].firstIndex(of: ":") {
                shown.replaceSubrange(colon..<at, with: ":…")
            }
            return shown
        }
    }

    /// The folder local files go to by default (media, emails written as files): beside a
    /// SQLite file; `var/` for PostgreSQL (several servers need `--media` on shared storage).
    var localFolder: String {
        switch self {
        case let .sqlite(path): (path as NSString).deletingLastPathComponent
        case .postgres: "var"
        }
    }

    /// The URL scheme (lower-cased) when `text` starts with one: letters, then digits, `+`, `-`
    /// or `.`, then `:` — at least two characters, so `C:\shop.db` stays a path.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard candidate.count >= 2, let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return candidate.lowercased()
    }
}
