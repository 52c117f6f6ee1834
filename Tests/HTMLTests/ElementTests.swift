import HTML
import Testing

@Suite("Elements and attributes")
struct ElementTests {
    @Test func voidElementsRenderWithoutClosingTag() {
        #expect(renderString(br()) == "<br>")
        #expect(renderString(hr()) == "<hr>")
        #expect(renderString(img(.src("/a.svg"), .alt(""))) == "<img src=\"/a.svg\" alt=\"\">")
        #expect(renderString(input(.type("email"), .name("email"))) == "<input type=\"email\" name=\"email\">")
        #expect(renderString(meta(.charset("utf-8"))) == "<meta charset=\"utf-8\">")
        #expect(renderString(link(.rel("stylesheet"), .href("/s.css"))) == "<link rel=\"stylesheet\" href=\"/s.css\">")
        #expect(renderString(source(.srcset("/a.webp"), .type("image/webp"))) == "<source srcset=\"/a.webp\" type=\"image/webp\">")
    }

    @Test func emptyNonVoidElementsKeepTheirClosingTag() {
        #expect(renderString(div()) == "<div></div>")
        #expect(renderString(textarea(.name("note"))) == "<textarea name=\"note\"></textarea>")
        #expect(renderString(script(src: "/app.js", .defer)) == "<script src=\"/app.js\" defer></script>")
    }

    @Test(arguments: [
        (Attribute.disabled, "disabled"), (.checked, "checked"), (.selected, "selected"), (.hidden, "hidden"),
        (.required, "required"), (.defer, "defer"), (.readonly, "readonly"), (.multiple, "multiple"),
        (.open, "open"), (.boolean("inert"), "inert"),
    ])
    func booleanAttributesRenderBare(attribute: Attribute, name: String) {
        #expect(renderString(button(attribute)) == "<button \(name)></button>")
    }

    @Test(arguments: [true, false])
    func conditionalBooleanAttributesAppearOnlyWhenOn(isOn: Bool) {
        let html = renderString(option(.value("red"), .selected(isOn), .disabled(isOn)) { "Red" })
        #expect(html == (isOn
            ? "<option value=\"red\" selected disabled>Red</option>"
            : "<option value=\"red\">Red</option>"))
    }

    @Test func attributesRenderInTheOrderGiven() {
        let html = renderString(a(.href("/x"), .class("btn"), .aria("label", "Open"), .data("id", "7"), .role("button")) { "Go" })
        #expect(html == "<a href=\"/x\" class=\"btn\" aria-label=\"Open\" data-id=\"7\" role=\"button\">Go</a>")
    }

    @Test func numericAttributesRenderAsDecimalIntegers() {
        let html = renderString(input(.type("number"), .min(1), .max(10), .step("1"), .value(3), .inputmode("numeric")))
        #expect(html == "<input type=\"number\" min=\"1\" max=\"10\" step=\"1\" value=\"3\" inputmode=\"numeric\">")
        #expect(renderString(img(.width(400), .height(300))) == "<img width=\"400\" height=\"300\">")
    }

    @Test func documentStartsWithDoctypeAndLanguage() {
        let page = document(lang: "tr") {
            head {
                meta(.charset("utf-8"))
                meta(.name("viewport"), .content("width=device-width, initial-scale=1"))
                title { "Sepet & Ödeme" }
            }
            body { main { "Merhaba" } }
        }
        #expect(renderString(page) == """
            <!DOCTYPE html><html lang="tr"><head><meta charset="utf-8">\
            <meta name="viewport" content="width=device-width, initial-scale=1">\
            <title>Sepet &amp; Ödeme</title></head><body><main>Merhaba</main></body></html>
            """)
    }

    @Test func genericElementAndAttributeWork() {
        let html = renderString(.element("search", [.attribute("itemprop", "x")]) { "q" })
        #expect(html == "<search itemprop=\"x\">q</search>")
    }

    @Test func renderIntoAppendsToAnExistingBuffer() {
        var buffer = Array("HTTP body: ".utf8)
        render(b { "1 < 2" }, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "HTTP body: <b>1 &lt; 2</b>")
    }
}
