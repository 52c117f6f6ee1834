import Foundation
import HTTPServer
import ShopTestSupport
import ShopWeb
import Testing

/// The snapshot helper itself: a missing or different snapshot fails, recording rewrites, and a
/// difference is shown as lines. Files go to a temporary folder, never to `__Snapshots__`.
@Suite("Response snapshot helper")
struct ResponseSnapshotTests {
    private struct Down: Error {}

    /// A test file path in a fresh temporary folder, and the snapshot file it maps to.
    private func scratch() -> (testFile: String, snapshot: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-helper-\(UUID().uuidString)")
        let testFile = folder.appendingPathComponent("FakeTests.swift").path
        return (testFile, ResponseSnapshot.fileURL(filePath: testFile, function: "health()", name: nil))
    }

    /// Runs `body`, which records a snapshot: the warning that says so is expected here.
    private func recording(_ body: () throws -> Void) throws {
        try withKnownIssue { try body() } matching: { $0.severity == .warning && $0.description.contains("Recorded snapshot") }
    }

    @Test func aMissingSnapshotIsWrittenAndFails() throws {
        let (testFile, snapshot) = scratch()
        defer { try? FileManager.default.removeItem(at: snapshot.deletingLastPathComponent().deletingLastPathComponent()) }
        let shop = try TestShop()
        try withKnownIssue {
            assertResponseSnapshot(of: try shop.get("/healthz"), record: false, filePath: testFile, function: "health()")
        } matching: { $0.description.contains("No snapshot at") }
        #expect(snapshot.path.hasSuffix("/__Snapshots__/FakeTests/health.txt"))
        let written = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(written.hasPrefix("GET /healthz\n\nHTTP/1.1 200 OK\n") && written.hasSuffix("\n(3 bytes)\nok\n"))
        assertResponseSnapshot(of: try shop.get("/healthz"), record: false, filePath: testFile, function: "health()")
    }

    @Test func aDifferenceFailsWithALineDiffAndLeavesTheFile() throws {
        let (testFile, snapshot) = scratch()
        defer { try? FileManager.default.removeItem(at: snapshot.deletingLastPathComponent().deletingLastPathComponent()) }
        let shop = try TestShop()
        try recording { assertResponseSnapshot(of: try shop.get("/healthz"), record: true, filePath: testFile, function: "health()") }
        let recorded = try String(contentsOf: snapshot, encoding: .utf8)
        shop.environment.healthCheck = { throw Down() }
        try withKnownIssue {
            assertResponseSnapshot(of: try shop.get("/healthz"), record: false, filePath: testFile, function: "health()")
        } matching: { issue in
            issue.description.contains("- HTTP/1.1 200 OK") && issue.description.contains("+ HTTP/1.1 503 Service Unavailable")
        }
        #expect(try String(contentsOf: snapshot, encoding: .utf8) == recorded, "checking never writes")
        try recording { assertResponseSnapshot(of: try shop.get("/healthz"), record: true, filePath: testFile, function: "health()") }
        #expect(try String(contentsOf: snapshot, encoding: .utf8).contains("database unavailable"), "recording rewrites")
    }

    @Test func theDiffShowsEachChangeBetweenItsNeighbours() throws {
        let old = (1...30).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 10\n", with: "line ten\nline ten and a half\n")
            .replacingOccurrences(of: "line 25\n", with: "")
        let diff = try #require(ResponseSnapshot.lineDiff(expected: old, actual: new, context: 2))
        #expect(diff == """
            @@ -8 +8 @@
              line 8
              line 9
            - line 10
            + line ten
            + line ten and a half
              line 11
              line 12
            @@ -23 +24 @@
              line 23
              line 24
            - line 25
              line 26
              line 27
            """)
        #expect(ResponseSnapshot.lineDiff(expected: old, actual: old) == nil)
    }

    @Test func htmlIsShownAsLinesAndBinaryAsSizeAndHash() {
        let html = Response.html("<p>a</p><p>b</p>")
        #expect(ResponseSnapshot.bodyText(html) == "(16 bytes of HTML; shown with a line break between adjacent tags)\n<p>a</p>\n<p>b</p>")
        let image = Response(headers: ["Content-Type": "image/png"], body: [0x89, 0x50, 0x4E, 0x47])
        #expect(ResponseSnapshot.bodyText(image) == "(4 bytes of image/png, not shown; FNV-1a 64: \(ResponseSnapshot.fnv1a64([0x89, 0x50, 0x4E, 0x47])))")
        #expect(ResponseSnapshot.fnv1a64([]) == "cbf29ce484222325")
        #expect(ResponseSnapshot.bodyText(.redirect(to: "/")) == "(no body)")
    }
}
