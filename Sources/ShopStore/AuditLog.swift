public import Foundation
public import ShopCore

/// Where a change came from (issue #16, the audit log).
public enum AuditSource: String, Hashable, Sendable, CaseIterable {
    /// A staff member in the back office.
    case backOffice = "back-office"
    /// An operator's `shoppable` command.
    case cli
    /// The shop itself (the unpaid sweep, the demo catalog at first start).
    case shop
    /// The JSON API, by an operator's token.
    case api
}

/// Who made a change, and through what.
public struct AuditActor: Hashable, Sendable {
    /// A staff member's email, an API operator's email, `cli` or `shop`.
    public var name: String
    public var source: AuditSource

    public init(name: String, source: AuditSource) {
        self.name = name
        self.source = source
    }

    /// An operator at the command line.
    public static let cli = AuditActor(name: "cli", source: .cli)
    /// The shop itself.
    public static let shop = AuditActor(name: "shop", source: .shop)
    /// A staff member in the back office.
    public static func staff(_ email: String) -> AuditActor { AuditActor(name: email, source: .backOffice) }
}

/// One field's value before and after a change (nil: it had none, e.g. before a creation).
public struct AuditChange: Hashable, Sendable, Codable {
    public var field: String
    public var before: String?
    public var after: String?

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }

    /// The fields of two values of one type that differ, by name, as text: what a creation
    /// (`before` nil), an update or a deletion (`after` nil) changed. Read with `Mirror`, so a
    /// field added to the type is audited without being listed here.
    public static func between<Value>(_ before: Value?, _ after: Value?) -> [AuditChange] {
        let old = fields(before), new = fields(after)
        let names = (old.map(\.0) + new.map(\.0)).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let oldValues = Dictionary(old, uniquingKeysWith: { first, _ in first })
        let newValues = Dictionary(new, uniquingKeysWith: { first, _ in first })
        return names.compactMap { name in
            oldValues[name] == newValues[name] ? nil : AuditChange(field: name, before: oldValues[name], after: newValues[name])
        }
    }

    private static func fields<Value>(_ value: Value?) -> [(String, String)] {
        guard let value else { return [] }
        return Mirror(reflecting: value).children.compactMap { child in
            guard let label = child.label else { return nil }
            return (label, text(child.value))
        }
    }

    /// An amount as the audit shows it, `1999 USD minor units` (without `Mirror`: an import
    /// writes one per variant).
    static func text(_ money: Money) -> String { "\(money.minorUnits) \(money.currency.code) minor units" }

    /// A value as the audit shows it: optionals unwrapped ("none" for nil), tagged ids by their
    /// raw value, dates in ISO 8601, money with its currency.
    static func text(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "none" }
            return text(wrapped)
        }
        switch value {
        case let date as Date: return ISO8601DateFormatter().string(from: date)
        case let money as Money: return text(money)
        case let raw as any RawRepresentable: return String(describing: raw.rawValue)
        default: return String(describing: value)
        }
    }
}

/// One entry of the audit log: who changed what, when, through what, field by field. Written in
/// the transaction of the change it records; never changed or deleted afterwards (the table
/// refuses both: migration 29's triggers).
public struct AuditEntry: Hashable, Sendable {
    public var at: Date
    public var actor: String
    public var source: AuditSource
    /// What was changed: `order`, `staff`, `stock`, `campaign`.
    public var subject: String
    /// Which one: an order number, an email, a SKU, a campaign id.
    public var subjectID: String
    /// What was done: an order step (`mark-paid`), `create`, `update`, `delete`, `set`.
    public var action: String
    public var changes: [AuditChange]

    public init(at: Date, actor: AuditActor, subject: String, subjectID: String, action: String, changes: [AuditChange]) {
        self.at = StoredTime.date(unixSeconds: StoredTime.unixSeconds(at))
        self.actor = actor.name
        self.source = actor.source
        self.subject = subject
        self.subjectID = subjectID
        self.action = action
        self.changes = changes
    }
}

/// Which entries the audit page shows: filters, each optional, and a page, newest first.
public struct AuditQuery: Hashable, Sendable {
    public var source: AuditSource?
    public var subject: String?
    /// Part of the actor's name, without case.
    public var actor: String?
    /// Part of the subject's id, without case (an order number, an email, a SKU).
    public var subjectID: String?
    public var from: Date?
    public var before: Date?
    public var limit: Int
    public var offset: Int

    public init(source: AuditSource? = nil, subject: String? = nil, actor: String? = nil, subjectID: String? = nil,
                from: Date? = nil, before: Date? = nil, limit: Int = 50, offset: Int = 0) {
        self.source = source
        self.subject = subject
        self.actor = actor
        self.subjectID = subjectID
        self.from = from
        self.before = before
        self.limit = min(max(limit, 1), 500)
        self.offset = max(offset, 0)
    }

    /// The filters as one condition on `audit_events`, `?` placeholders, the same on every engine.
    public var condition: (sql: String, values: [StoredValue]) {
        var parts: [String] = [], values: [StoredValue] = []
        if let source { parts.append("source = ?"); values.append(.text(source.rawValue)) }
        if let subject, !subject.isEmpty { parts.append("subject = ?"); values.append(.text(subject)) }
        if let actor = actor?.trimmingCharacters(in: .whitespaces), !actor.isEmpty {
            parts.append("lower(actor) LIKE ? ESCAPE '\\'")
            values.append(.text("%" + OrderQuery.likeEscaped(actor.lowercased()) + "%"))
        }
        if let subjectID = subjectID?.trimmingCharacters(in: .whitespaces), !subjectID.isEmpty {
            parts.append("lower(subject_id) LIKE ? ESCAPE '\\'")
            values.append(.text("%" + OrderQuery.likeEscaped(subjectID.lowercased()) + "%"))
        }
        if let from { parts.append("at >= ?"); values.append(.integer(StoredTime.unixSeconds(from))) }
        if let before { parts.append("at < ?"); values.append(.integer(StoredTime.unixSeconds(before))) }
        return (parts.isEmpty ? "1 = 1" : parts.joined(separator: " AND "), values)
    }
}

/// One page of entries and how many match.
public struct AuditPage: Hashable, Sendable {
    public var entries: [AuditEntry]
    public var total: Int

    public init(entries: [AuditEntry], total: Int) {
        self.entries = entries
        self.total = total
    }
}

/// Reading the audit log (writes happen inside each change's own transaction, by the store
/// that makes it: `StoredAudit.values`).
public struct AuditStore: Sendable {
    public var entries: @Sendable (AuditQuery) throws -> AuditPage

    public init(entries: @escaping @Sendable (AuditQuery) throws -> AuditPage) { self.entries = entries }
}

/// Rows of `audit_events` ↔ `AuditEntry`, the same on every engine.
public enum StoredAudit {
    /// The columns ``entry(_:)`` reads and ``values(_:)`` fills, in order.
    public static let columns = "at, actor, source, subject, subject_id, action, changes"

    /// What `audit_events` stores of an entry.
    public static func values(_ entry: AuditEntry) -> [StoredValue] {
        let changes = json(entry.changes)
        return [.integer(StoredTime.unixSeconds(entry.at)), .text(entry.actor), .text(entry.source.rawValue), .text(entry.subject),
                .text(entry.subjectID), .text(entry.action), .text(changes)]
    }

    /// The changes as the JSON `entry(_:)` decodes: `[{"field":…,"before":…,"after":…}]`, a nil
    /// value left out. Written by hand, as bytes: `JSONEncoder` was most of what auditing added
    /// to a 30 000-product import (docs/BENCHMARKS.md, 2026-12-03), and this shape is only strings.
    public static func json(_ changes: [AuditChange]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(changes.reduce(2) { $0 + 40 + $1.field.utf8.count + ($1.before?.utf8.count ?? 0) + ($1.after?.utf8.count ?? 0) })
        out.append(UInt8(ascii: "["))
        for (index, change) in changes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += #"{"field":"#.utf8
            appendString(change.field, to: &out)
            if let before = change.before {
                out += #","before":"#.utf8
                appendString(before, to: &out)
            }
            if let after = change.after {
                out += #","after":"#.utf8
                appendString(after, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped.
    /// Byte by byte: every byte of a multi-byte UTF-8 sequence is ≥ 0x80, so none is escaped.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let bytes = text.utf8
        if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += bytes
        } else {
            let hex = Array("0123456789abcdef".utf8)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case ..<0x20: out += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The entry of a row of ``columns``.
    public static func entry(_ row: some StoredRow) throws -> AuditEntry {
        let changes = (try? JSONDecoder().decode([AuditChange].self, from: Data(try row.string(6).utf8))) ?? []
        return AuditEntry(at: StoredTime.date(unixSeconds: try row.int64(0)),
                          actor: AuditActor(name: try row.string(1), source: AuditSource(rawValue: try row.string(2)) ?? .cli),
                          subject: try row.string(3), subjectID: try row.string(4), action: try row.string(5), changes: changes)
    }
}
