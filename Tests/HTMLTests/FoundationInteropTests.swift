import Foundation
import HTML
import Testing

/// Views import Foundation too, whose C library exports functions named like elements
/// (`time`, `select`, `link`, `index`); the element functions must still be chosen.
@Suite("Foundation interop")
struct FoundationInteropTests {
    @Test func elementNamesSharedWithCFunctionsResolveToElements() {
        let node = div {
            time(.datetime("2026-03-14T09:00:00Z")) { "March 14, 2026" }
            select(.name("color")) {
                option(.value("red"), .selected) { "Red" }
            }
            link(.rel("stylesheet"), .href("/site.css"))
        }
        #expect(renderString(node) == """
            <div><time datetime="2026-03-14T09:00:00Z">March 14, 2026</time>\
            <select name="color"><option value="red" selected>Red</option></select>\
            <link rel="stylesheet" href="/site.css"></div>
            """)
    }
}
