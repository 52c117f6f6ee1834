import HTML
import Testing

@Suite("NodeBuilder")
struct NodeBuilderTests {
    @Test(arguments: [true, false])
    func ifWithoutElseAddsContentOnlyWhenTrue(onSale: Bool) {
        let node: Node = p {
            if onSale { del { "$179.00" } }
            strong { "$149.00" }
        }
        #expect(renderString(node) == (onSale
            ? "<p><del>$179.00</del><strong>$149.00</strong></p>"
            : "<p><strong>$149.00</strong></p>"))
    }

    @Test(arguments: [0, 3])
    func ifElseChoosesOneBranch(stock: Int) {
        let node: Node = span {
            if stock > 0 {
                strong { "In stock" }
            } else {
                "Sold out"
            }
        }
        #expect(renderString(node) == (stock > 0 ? "<span><strong>In stock</strong></span>" : "<span>Sold out</span>"))
    }

    @Test func forLoopRendersEachElementInOrder() {
        let tags = ["oak", "dining", "<b>"]
        let node: Node = ul {
            for tag in tags { li(.class("tag")) { tag } }
        }
        #expect(renderString(node) == "<ul><li class=\"tag\">oak</li><li class=\"tag\">dining</li><li class=\"tag\">&lt;b&gt;</li></ul>")
    }

    @Test func emptyLoopRendersNothing() {
        let tags: [String] = []
        #expect(renderString(ul { for tag in tags { li { tag } } }) == "<ul></ul>")
    }

    @Test(arguments: [nil, "4.6"] as [String?])
    func optionalStringsAndNodesRenderOnlyWhenPresent(rating: String?) {
        let badge: Node? = rating.map { value in span(.class("rating")) { value } }
        let node: Node = div {
            rating
            badge
            if let rating { small { rating } }
        }
        #expect(renderString(node) == (rating == nil
            ? "<div></div>"
            : "<div>4.6<span class=\"rating\">4.6</span><small>4.6</small></div>"))
    }

    @Test func arraysOfNodesAreSplicedIn() {
        let items: [Node] = ["a", "b"].map { letter in li { letter } }
        #expect(renderString(ol { items; li { "c" } }) == "<ol><li>a</li><li>b</li><li>c</li></ol>")
    }

    @Test(arguments: [0, 1, 2])
    func switchStatementsPickOneCase(choice: Int) {
        let node: Node = p {
            switch choice {
            case 0: "zero"
            case 1: em { "one" }
            default: strong { "many" }
            }
        }
        let expected = ["<p>zero</p>", "<p><em>one</em></p>", "<p><strong>many</strong></p>"][choice]
        #expect(renderString(node) == expected)
    }

    @Test func nestedBuildersCompose() {
        let url = "/products/oak-chair"
        let title = "Oak \"Nordic\" Chair"
        let node: Node = div(.class("card"), .data("product-id", "12")) {
            a(.href(url)) { img(.src("/static/images/demo/oak.svg"), .alt(title)) }
            h2 { title }
            fragment {
                span { "A" }
                "B"
            }
        }
        #expect(renderString(node) == """
            <div class="card" data-product-id="12"><a href="/products/oak-chair">\
            <img src="/static/images/demo/oak.svg" alt="Oak &quot;Nordic&quot; Chair"></a>\
            <h2>Oak &quot;Nordic&quot; Chair</h2><span>A</span>B</div>
            """)
    }

    @Test func fragmentsAreFlattenedIntoTheParent() {
        let node: Node = div {
            for n in 1...2 {
                if n == 1 { "one" } else { fragment { "two"; "2" } }
            }
        }
        guard case .element(_, _, let children) = node else {
            Issue.record("expected an element")
            return
        }
        #expect(children.count == 3)
        #expect(renderString(node) == "<div>onetwo2</div>")
    }

    @Test func componentsCanBeUsedAsStatements() {
        struct PriceTag: Component {
            var price: String
            var compareAt: String?
            var body: Node {
                p(.class("price")) {
                    if let compareAt { del { compareAt } }
                    strong { price }
                }
            }
        }
        let node: Node = div {
            PriceTag(price: "$149.00", compareAt: "$179.00")
            PriceTag(price: "$9.00")
        }
        #expect(renderString(node) == """
            <div><p class="price"><del>$179.00</del><strong>$149.00</strong></p>\
            <p class="price"><strong>$9.00</strong></p></div>
            """)
    }

    @Test func elementFunctionsCanBeModuleQualifiedWhenALocalNameShadowsThem() {
        struct Layout: Component {
            var title: String
            var body: Node {
                // `title` and `body` are properties here, so the elements are spelled `HTML.…`.
                document(lang: "en") {
                    head { HTML.title { title } }
                    HTML.body { main { "…" } }
                }
            }
        }
        #expect(renderString(Layout(title: "A & B").body) == """
            <!DOCTYPE html><html lang="en"><head><title>A &amp; B</title></head>\
            <body><main>…</main></body></html>
            """)
    }
}
