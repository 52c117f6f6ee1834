import HTML
import Testing

@Suite("Rendering")
struct RenderTests {
    struct Card {
        var id: Int
        var title: String
        var price: String
        var compareAt: String?
        var tags: [String]
    }

    static func cards() -> [Card] {
        (1...24).map { n in
            Card(
                id: n, title: "Chair #\(n) <\"Oak\" & 'Linen'> İğne 🪑", price: "$\(100 + n).00",
                compareAt: n.isMultiple(of: 3) ? "$\(150 + n).00" : nil,
                tags: n.isMultiple(of: 2) ? ["oak", "sale"] : ["linen"])
        }
    }

    static func page(_ cards: [Card]) -> Node {
        document(lang: "en") {
            head {
                meta(.charset("utf-8"))
                title { "Chairs" }
                link(.rel("stylesheet"), .href("/static/site.css"))
                script(src: "/static/site.js", .defer)
            }
            body {
                main {
                    ul(.class("grid")) {
                        for card in cards {
                            li {
                                article(.class("card"), .data("product-id", String(card.id))) {
                                    a(.href("/products/\(card.id)")) {
                                        img(.src("/static/images/demo/\(card.id).svg"), .alt(card.title), .loading("lazy"))
                                    }
                                    h2 { card.title }
                                    if let compareAt = card.compareAt { del { compareAt } }
                                    strong { card.price }
                                    for tag in card.tags { span(.class("tag")) { tag } }
                                    form(.method("post"), .action("/cart")) {
                                        input(.type("hidden"), .name("id"), .value(card.id))
                                        button(.type("submit")) { "Add" }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @Test func aPageOf24CardsRendersIdenticalBytesTwice() {
        let first = render(Self.page(Self.cards()))
        let second = render(Self.page(Self.cards()))
        #expect(first == second)
        let html = String(decoding: first, as: UTF8.self)
        #expect(html.ranges(of: "<article class=\"card\"").count == 24)
        #expect(html.ranges(of: "<del>").count == 8)
        #expect(!html.contains("<\"Oak\""))
        #expect(html.contains("Chair #24 &lt;&quot;Oak&quot; &amp; &#39;Linen&#39;&gt; İğne 🪑"))
    }

    @Test func byteAndStringRenderingAgree() {
        let page = Self.page(Self.cards())
        #expect(Array(renderString(page).utf8) == render(page))
        #expect(page.bytes == render(page))
    }
}
