import HTML
import Testing

/// `HTMLWriter` writes the bytes `render` gives for the same tree.
@Suite("HTMLWriter")
struct HTMLWriterTests {
    static let texts = ["plain", "", "a & b < c > d \" e ' f", "çay İstanbul ñandú 🍵", "<script>alert(1)</script>"]

    @Test(arguments: texts)
    func writesWhatTheTreeRenders(text: String) {
        let tree = article(.class("card " + text), .data("id", text)) {
            form(.method("post"), .action("/x?a=" + text)) {
                Node.raw(unsafe: "<!--p:csrf-->")
                input(.type("hidden"), .name("return_to"), .value(text))
                button(.type("submit"), .disabled(text.isEmpty)) { text }
            }
            p(.class("price")) {
                span(.class("now")) { text }
                span(.class("empty")) {}
            }
            img(.src("/i.png"), .alt(text), .width(40), .height(40))
        }
        var writer = HTMLWriter(reservingCapacity: 16)
        writer.element("article", .class("card " + text), .data("id", text)) { writer in
            writer.element("form", .method("post"), .action("/x?a=" + text)) { writer in
                writer.raw(unsafe: "<!--p:csrf-->")
                writer.void("input", .type("hidden"), .name("return_to"), .value(text))
                writer.element("button", .type("submit"), .disabled(text.isEmpty), text: text)
            }
            writer.element("p", .class("price")) { writer in
                writer.element("span", .class("now")) { writer in writer.text(text) }
                writer.element("span", .class("empty"), text: "")
            }
            writer.write(img(.src("/i.png"), .alt(text), .width(40), .height(40)))
        }
        #expect(writer.bytes == render(tree))
        #expect(renderString(div { writer.node }) == renderString(div { tree }), "placed in a tree as it is")
    }
}
