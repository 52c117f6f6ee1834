public import Foundation
import CSQLite

/// An error reported by SQLite: the extended result code, SQLite's message, and the SQL that
/// failed when there was one.
///
/// Result codes are listed at <https://www.sqlite.org/rescode.html>; extended codes are enabled
/// on every connection, so a UNIQUE violation is `2067` (`SQLITE_CONSTRAINT_UNIQUE`), whose
/// primary code (`code & 0xff`) is `19` (`SQLITE_CONSTRAINT`).
///
/// ```swift
/// do { try connection.execute("INSERT INTO t(id) VALUES (1)") }
/// catch where error.isConstraintViolation { … }
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The SQLite extended result code, e.g. `2067` for `SQLITE_CONSTRAINT_UNIQUE`.
    public var code: Int32
    /// SQLite's English message (`sqlite3_errmsg`), or a message from this wrapper.
    public var message: String
    /// The statement being prepared or run, when the error came from one.
    public var sql: String?

    /// Creates an error value.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`code & 0xff`), e.g. `19` for every constraint violation.
    public var primaryCode: Int32 { code & 0xff }

    /// `true` for any `SQLITE_CONSTRAINT` error (UNIQUE, CHECK, FOREIGN KEY, NOT NULL, …).
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// `true` for a `FOREIGN KEY` violation (`SQLITE_CONSTRAINT_FOREIGNKEY`): a row names a
    /// parent row that does not exist.
    public var isForeignKeyViolation: Bool { primaryCode == SQLITE_CONSTRAINT && code >> 8 == 3 }

    /// `true` when the database stayed locked longer than the busy timeout (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`); the operation may be retried.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// `"SQLite error 2067: UNIQUE constraint failed: t.id (in: INSERT …)"`.
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }

    /// Same as `description`.
    public var errorDescription: String? { description }

    /// `SQLITE_MISUSE` (21): used for errors of this wrapper (wrong column type, closed
    /// connection, too many or too few bound values).
    public static let misuseCode: Int32 = SQLITE_MISUSE
    /// `SQLITE_RANGE` (25): a parameter or column index out of range.
    public static let rangeCode: Int32 = SQLITE_RANGE
    /// `SQLITE_MISMATCH` (20): a column holds a different type than the one read.
    public static let mismatchCode: Int32 = SQLITE_MISMATCH
}
