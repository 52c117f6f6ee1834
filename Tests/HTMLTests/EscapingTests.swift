import HTML
import Testing

@Suite("Escaping")
struct EscapingTests {
    @Test(arguments: [
        ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;"),
        ("a&b<c>d\"e'f", "a&amp;b&lt;c&gt;d&quot;e&#39;f"),
        ("&amp;", "&amp;amp;"),
        ("plain text", "plain text"),
        ("", ""),
    ])
    func textEscapesEverySpecialCharacter(input: String, expected: String) {
        #expect(renderString(.text(input)) == expected)
        #expect(renderString(p { input }) == "<p>\(expected)</p>")
    }

    @Test(arguments: [
        ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;"),
        ("x\"y'z<&>", "x&quot;y&#39;z&lt;&amp;&gt;"),
    ])
    func attributeValuesEscapeEverySpecialCharacter(input: String, expected: String) {
        #expect(renderString(div(.title(input))) == "<div title=\"\(expected)\"></div>")
        #expect(renderString(img(.alt(input))) == "<img alt=\"\(expected)\">")
        #expect(renderString(span(.data("name", input))) == "<span data-name=\"\(expected)\"></span>")
    }

    @Test func scriptTagInTextIsInert() {
        let html = renderString(h2 { "<script>alert(1)</script>" })
        #expect(html == "<h2>&lt;script&gt;alert(1)&lt;/script&gt;</h2>")
        #expect(!html.contains("<script"))
    }

    @Test(arguments: ["\"onmouseover=\"alert(1)", "' onfocus='x", "\"><script>alert(1)</script>", "x' autofocus onfocus='alert(1)"])
    func attributeBreakoutPayloadsStayInsideTheValue(payload: String) {
        let html = renderString(input(.type("text"), .value(payload)))
        // The only quotes left are the two that delimit the value, so nothing escapes it.
        #expect(html.filter { $0 == "\"" }.count == 4)  // type="text" value="…"
        #expect(!html.contains("'"))
        #expect(!html.contains("<script"))
        #expect(html.hasPrefix("<input type=\"text\" value=\""))
        #expect(html.hasSuffix("\">"))
    }

    @Test func commentCannotBeClosedEarly() {
        #expect(renderString(.comment("--><script>x</script>")) == "<!----&gt;&lt;script&gt;x&lt;/script&gt;-->")
    }

    @Test func rawUnsafePassesMarkupThroughUnchanged() {
        let markup = "<p>Solid <strong>oak</strong> & \"linen\"</p>"
        #expect(renderString(.raw(unsafe: markup)) == markup)
        #expect(renderString(div { Node.raw(unsafe: "<br>") }) == "<div><br></div>")
    }

    @Test(arguments: ["Çay bardağı ☕️ İstanbul ığüşöç", "👩🏽‍💻 Smörgåsbord", "日本語のテキスト", "e\u{301}"])
    func nonASCIITextIsKeptIntact(text: String) {
        #expect(render(.text(text)) == Array(text.utf8))
        #expect(renderString(span(.title(text)) { text }) == "<span title=\"\(text)\">\(text)</span>")
    }

    @Test func specialCharactersNextToMultiByteCharactersAreEscaped() {
        #expect(renderString(.text("İ<ı>😀&")) == "İ&lt;ı&gt;😀&amp;")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "\u{1}javascript:alert(1)", "vbscript:msgbox(1)", "jav\nascript:x",
    ])
    func scriptURLsAreNeutralized(url: String) {
        #expect(renderString(a(.href(url))) == "<a href=\"about:invalid\"></a>")
        #expect(renderString(img(.src(url))) == "<img src=\"about:invalid\">")
        #expect(renderString(form(.action(url))) == "<form action=\"about:invalid\"></form>")
    }

    @Test(arguments: [
        "/products/oak-chair?color=red&size=L", "https://example.com/a", "#reviews", "?page=2",
        "javascripts/app.js", "mailto:help@example.com", "javascriptx:1", "data:image/png;base64,AA",
    ])
    func ordinaryURLsAreKeptAndEscaped(url: String) {
        let escaped = url.map { $0 == "&" ? "&amp;" : String($0) }.joined()
        #expect(renderString(a(.href(url))) == "<a href=\"\(escaped)\"></a>")
    }
}
