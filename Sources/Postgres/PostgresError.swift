public import Foundation

/// An error reported by PostgreSQL or libpq: the SQLSTATE, the server's message, and the SQL
/// that failed when there was one.
///
/// ```swift
/// do { try connection.run("INSERT INTO users (email) VALUES ($1)", [email]) }
/// catch let error as PostgresError where error.sqlState == .uniqueViolation { … }
/// ```
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The five-character SQLSTATE (<https://www.postgresql.org/docs/15/errcodes-appendix.html>).
    public var sqlState: SQLState
    /// The server's primary message, or one from libpq or this wrapper.
    public var message: String
    /// The server's detail line, when it sent one (e.g. which key was duplicated).
    public var detail: String?
    /// The statement that failed, when the error came from one.
    public var sql: String?

    /// Creates an error value.
    public init(sqlState: SQLState, message: String, detail: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    /// `true` when the connection is gone (class 08, or the server shutting down or crashed:
    /// 57P01–57P03): the connection cannot be used again; a pool opens a new one.
    public var isConnectionLost: Bool {
        sqlState.errorClass == "08" || [SQLState.adminShutdown, .crashShutdown, .cannotConnectNow].contains(sqlState)
    }

    /// `true` for a serialization failure or a deadlock: the transaction was rolled back and
    /// running it again may succeed (``PostgresPool/transaction(_:attempts:_:)`` does).
    public var isRetryable: Bool { sqlState == .serializationFailure || sqlState == .deadlockDetected }

    /// `true` for any integrity constraint violation (class 23: unique, foreign key, check, not null).
    public var isConstraintViolation: Bool { sqlState.errorClass == "23" }

    /// `"PostgreSQL error 23505: duplicate key value violates unique constraint … (in: INSERT …)"`.
    public var description: String {
        var text = "PostgreSQL error \(sqlState.rawValue): \(message)"
        if let detail { text += " — \(detail)" }
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// Same as `description`.
    public var errorDescription: String? { description }
}

/// A SQLSTATE code. A struct, not an enum: PostgreSQL has hundreds and adds more; the ones this
/// project acts on are named.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five characters, e.g. `"23505"`.
    public var rawValue: String
    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The class: the first two characters (`"23"` for integrity constraint violations).
    public var errorClass: Substring { rawValue.prefix(2) }
    public var description: String { rawValue }

    /// 23505: a UNIQUE constraint or index refused the row.
    public static let uniqueViolation = SQLState(rawValue: "23505")
    /// 23503: a FOREIGN KEY refused the row.
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    /// 23502: NULL in a NOT NULL column.
    public static let notNullViolation = SQLState(rawValue: "23502")
    /// 23514: a CHECK constraint refused the row.
    public static let checkViolation = SQLState(rawValue: "23514")
    /// 40001: the transaction could not be serialized; run it again.
    public static let serializationFailure = SQLState(rawValue: "40001")
    /// 40P01: the transaction was chosen as a deadlock's victim; run it again.
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    /// 08000: connection exception.
    public static let connectionException = SQLState(rawValue: "08000")
    /// 08001: the client could not establish the connection.
    public static let cannotEstablishConnection = SQLState(rawValue: "08001")
    /// 08006: the connection failed (libpq reports no SQLSTATE then; this wrapper uses this one).
    public static let connectionFailure = SQLState(rawValue: "08006")
    /// 57P01: the server is shutting down (or the backend was terminated).
    public static let adminShutdown = SQLState(rawValue: "57P01")
    /// 57P02: the server crashed.
    public static let crashShutdown = SQLState(rawValue: "57P02")
    /// 57P03: the server is starting up or shutting down.
    public static let cannotConnectNow = SQLState(rawValue: "57P03")
    /// 42P01: no such table.
    public static let undefinedTable = SQLState(rawValue: "42P01")
    /// 42601: syntax error.
    public static let syntaxError = SQLState(rawValue: "42601")
    /// 22021: bytes that are not valid in the encoding (a NUL character in text).
    public static let characterNotInRepertoire = SQLState(rawValue: "22021")
    /// 22P02: a value that is not valid for its type (e.g. `'x'` as an integer).
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    /// XX000-style errors of this wrapper: a column read as the wrong type, a closed connection.
    public static let wrapperMisuse = SQLState(rawValue: "XXSHP")
}
