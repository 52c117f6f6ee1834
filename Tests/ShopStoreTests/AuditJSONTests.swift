import Foundation
import ShopStore
import Testing

/// `StoredAudit.json` writes what `JSONDecoder` reads back exactly, whatever the text holds.
@Suite("Audit changes as JSON")
struct AuditJSONTests {
    @Test(arguments: [
        "plain", "", "say \"hi\"", #"back\slash"#, "line\nbreak\r\ttab", "bell\u{07} and \u{1F}", "Meşe İğne ı",
        "emoji 🪑 and é", "</script>", "\u{7F} delete", "tail\\",
    ])
    func anyTextRoundTrips(text: String) throws {
        let changes = [AuditChange(field: text, before: nil, after: text), AuditChange(field: "f", before: text, after: nil)]
        let json = StoredAudit.json(changes)
        #expect(try JSONDecoder().decode([AuditChange].self, from: Data(json.utf8)) == changes)
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 }, "no raw control character")
    }

    @Test func theShapeIsFieldBeforeAfterWithNilLeftOut() {
        #expect(StoredAudit.json([]) == "[]")
        #expect(StoredAudit.json([AuditChange(field: "title", before: nil, after: "Oak")]) == #"[{"field":"title","after":"Oak"}]"#)
    }
}
