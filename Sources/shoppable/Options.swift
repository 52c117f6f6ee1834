import Foundation
import ShopCore

/// Command-line options: flags, then `SHOPPABLE_*` environment variables, then defaults.
struct Options {
    var arguments: [String] = []
    private var flags: [String: String] = [:]
    private var switches: Set<String> = []

    /// Flags that take no value.
    static let switchNames: Set<String> = ["dry-run", "no-demo", "help", "unverified"]

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

    var database: String { value("database", default: "var/shoppable.sqlite3")! }

    func currency() throws -> Currency {
        do { return try Currency(code: value("currency", default: "USD")!) } catch { throw UsageError(error.description) }
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
