// Request → response snapshots (STYLE.md 12), in the manner of isowords' and pointfreeco's
// `Conn.txt` files, written by us.
//
// `assertResponseSnapshot(of:)` keeps one text file per exchange:
//
//     Tests/ShopWebTests/__Snapshots__/<test file name>/<test function>[.<name>].txt
//
// holding the request (method and target, the headers sent, the form body) and the response
// (status line, headers sorted by name, the body: HTML with a line break between adjacent tags so
// that a diff reads line by line, JSON and plain text as sent, anything else as size and hash).
//
// Workflow:
//
//     swift test --filter Snapshot                     check: a difference fails with a line diff;
//                                                      a missing file is written and FAILS, so a
//                                                      new snapshot is never accepted unseen
//     SNAPSHOT_RECORD=1 swift test --filter Snapshot   (re)write every snapshot; passes with a warning
//
// After recording, read `git diff Tests/ShopWebTests/__Snapshots__` like any code change: it is
// exactly what shoppers would see change. Commit the files with the change that caused them.

import Foundation
import HTTPServer
import ShopCore
import ShopTestSupport
import Testing

/// Checks `exchange` against its snapshot file (see the top of this file).
/// - Parameters:
///   - exchange: the request and the response, as `TestShop` returns them.
///   - name: tells several snapshots of one test apart (`cartWithLines.cart.txt`); needed in tests
///     with arguments.
///   - masking: text replaced before comparing, for values the app draws at random and tests cannot
///     inject (the order number's random letters): `[("1001-K7XM", "1001-****")]`.
///   - record: rewrite the file instead of comparing (`SNAPSHOT_RECORD=1` by default).
func assertResponseSnapshot(of exchange: TestResponse, named name: String? = nil, masking: [(String, String)] = [],
                            record: Bool = ResponseSnapshot.isRecording,
                            fileID: String = #fileID, filePath: String = #filePath, function: String = #function,
                            line: Int = #line, column: Int = #column) {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let file = ResponseSnapshot.fileURL(filePath: filePath, function: function, name: name)
    let actual = ResponseSnapshot.text(of: exchange, masking: masking)
    let relative = ResponseSnapshot.displayPath(file)
    let existing = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) }
    if record {
        do {
            try ResponseSnapshot.write(actual, to: file)
            let change = existing == nil ? "new" : existing == actual ? "unchanged" : "changed"
            Issue.record("Recorded snapshot \(relative) (\(change)): recording, not checking.", severity: .warning,
                         sourceLocation: location)
        } catch {
            Issue.record("Could not write snapshot \(relative): \(error)", sourceLocation: location)
        }
        return
    }
    guard let existing else {
        do {
            try ResponseSnapshot.write(actual, to: file)
            Issue.record("""
                No snapshot at \(relative): wrote it. Read it, then run the test again.
                (Record on purpose with SNAPSHOT_RECORD=1 swift test --filter Snapshot.)
                """, sourceLocation: location)
        } catch {
            Issue.record("No snapshot at \(relative), and it could not be written: \(error)", sourceLocation: location)
        }
        return
    }
    if let diff = ResponseSnapshot.lineDiff(expected: existing, actual: actual) {
        Issue.record("""
            Response differs from snapshot \(relative) (- snapshot, + now):
            \(diff)
            If the change is intended: SNAPSHOT_RECORD=1 swift test --filter Snapshot, then review git diff.
            """, sourceLocation: location)
    }
}

/// Formatting, comparing and storing snapshot files.
enum ResponseSnapshot {
    /// `true` when `SNAPSHOT_RECORD=1`: every snapshot is (re)written.
    static var isRecording: Bool { ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" }

    /// `__Snapshots__` beside the test file, a folder per test file, a file per test (and name).
    static func fileURL(filePath: String, function: String, name: String?) -> URL {
        let testFile = URL(fileURLWithPath: filePath)
        let suite = testFile.deletingPathExtension().lastPathComponent
        let test = function.prefix { $0 != "(" }
        return testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__")
            .appendingPathComponent(suite)
            .appendingPathComponent(name.map { "\(test).\($0).txt" } ?? "\(test).txt")
    }

    /// The path from `Tests/` on, for messages.
    static func displayPath(_ url: URL) -> String {
        guard let range = url.path.range(of: "/Tests/", options: .backwards) else { return url.path }
        return String(url.path[url.path.index(after: range.lowerBound)...])
    }

    static func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
    }

    /// The snapshot text of an exchange.
    static func text(of exchange: TestResponse, masking: [(String, String)] = []) -> String {
        let request = exchange.request, response = exchange.response
        var lines = ["\(request.method.rawValue) \(exchange.target)"]
        lines += sortedByName(request.headers).map { "\($0.name): \($0.value)" }
        if !request.body.isEmpty {
            lines += ["", String(decoding: request.body, as: UTF8.self)]
        }
        lines += ["", "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)"]
        lines += sortedByName(response.headers).map { "\($0.name): \($0.value)" }
        lines += ["", bodyText(response)]
        var text = lines.joined(separator: "\n")
        if !text.hasSuffix("\n") { text += "\n" }
        for (secret, mask) in masking where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: mask)
        }
        // A one-time message's tag is a keyed hash of its text (`SignedCookie`), which may hold
        // a masked value: shown as a placeholder (the tag is checked by `CartFlowTests`).
        return text.replacing(/(shoppable_(?:staff_)?flash=[^;\s]*\.)[0-9a-f]{32}/) { "\($0.1)<tag>" }
    }

    /// Headers by name (case-insensitively), keeping the order of repeated ones (`Set-Cookie`).
    private static func sortedByName(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        Array(headers).enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.name.lowercased(), rhs.element.name.lowercased())
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The body section: a line saying what it is, then the text when it is text.
    static func bodyText(_ response: Response) -> String {
        let body = response.body
        guard !body.isEmpty else { return "(no body)" }
        let type = response.headers["Content-Type"] ?? ""
        if type.hasPrefix("text/html") {
            let html = String(decoding: body, as: UTF8.self)
            return "(\(body.count) bytes of HTML; shown with a line break between adjacent tags)\n"
                + html.replacingOccurrences(of: "><", with: ">\n<")
        }
        if type.hasPrefix("application/json") || type.hasPrefix("text/plain") {
            return "(\(body.count) bytes)\n" + String(decoding: body, as: UTF8.self)
        }
        return "(\(body.count) bytes of \(type.isEmpty ? "unknown type" : type), not shown; FNV-1a 64: \(fnv1a64(body)))"
    }

    /// A hash to tell contents apart (not for security).
    static func fnv1a64(_ bytes: [UInt8]) -> String {
        let digits = ContentHash(of: bytes).hex
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Where `actual` departs from `expected`, as unified-diff hunks (`-` expected, `+` actual, up to
    /// `context` unchanged lines around each), at most `maxLines` lines; nil when they are equal.
    static func lineDiff(expected: String, actual: String, context: Int = 3, maxLines: Int = 60) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let edits = lineEdits(old, new)
        // Hunks: runs of changes with their context, merged when their context touches.
        var hunks: [Range<Int>] = []
        for (index, edit) in edits.enumerated() where edit.mark != " " {
            let range = max(0, index - context)..<min(edits.count, index + context + 1)
            if let last = hunks.last, last.upperBound >= range.lowerBound {
                hunks[hunks.count - 1] = last.lowerBound..<range.upperBound
            } else {
                hunks.append(range)
            }
        }
        func shown(_ line: Substring) -> String { line.count > 300 ? line.prefix(300) + "…" : String(line) }
        var out: [String] = []
        for hunk in hunks {
            let first = edits[hunk.lowerBound]
            out.append("@@ -\(first.oldLine) +\(first.newLine) @@")
            out += edits[hunk].map { "\($0.mark) \(shown($0.text))" }
        }
        if out.count > maxLines { out = out.prefix(maxLines) + ["… \(out.count - maxLines) more lines of differences"] }
        return out.joined(separator: "\n")
    }

    /// One line of a diff: kept (" "), removed ("-") or added ("+"), with the line numbers it is at.
    private struct LineEdit {
        var mark: Character
        var text: Substring
        var oldLine: Int
        var newLine: Int
    }

    /// The edit script from `old` to `new` over a longest common subsequence of lines (after the
    /// common head and tail, which most changes leave large).
    private static func lineEdits(_ old: [Substring], _ new: [Substring]) -> [LineEdit] {
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] {
            tail += 1
        }
        let a = Array(old[head..<(old.count - tail)]), b = Array(new[head..<(new.count - tail)])
        var edits = (0..<head).map { LineEdit(mark: " ", text: old[$0], oldLine: $0 + 1, newLine: $0 + 1) }
        if a.count * b.count <= 4_000_000 {
            // lcs[i][j]: length of the longest common subsequence of a[i...] and b[j...].
            var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in stride(from: a.count - 1, through: 0, by: -1) {
                for j in stride(from: b.count - 1, through: 0, by: -1) {
                    lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
            var (i, j) = (0, 0)
            while i < a.count || j < b.count {
                if i < a.count, j < b.count, a[i] == b[j] {
                    edits.append(LineEdit(mark: " ", text: a[i], oldLine: head + i + 1, newLine: head + j + 1))
                    i += 1; j += 1
                } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                    edits.append(LineEdit(mark: "-", text: a[i], oldLine: head + i + 1, newLine: head + j + 1))
                    i += 1
                } else {
                    edits.append(LineEdit(mark: "+", text: b[j], oldLine: head + i + 1, newLine: head + j + 1))
                    j += 1
                }
            }
        } else {  // too large to align: everything between head and tail changed
            edits += a.enumerated().map { LineEdit(mark: "-", text: $1, oldLine: head + $0 + 1, newLine: head + 1) }
            edits += b.enumerated().map { LineEdit(mark: "+", text: $1, oldLine: head + a.count + 1, newLine: head + $0 + 1) }
        }
        edits += (0..<tail).map {
            LineEdit(mark: " ", text: old[old.count - tail + $0], oldLine: old.count - tail + $0 + 1,
                     newLine: new.count - tail + $0 + 1)
        }
        return edits
    }
}
