import ShopImport
import Testing

@Suite("HTML sanitizer")
struct HTMLSanitizerTests {
    /// Every tag in the output is one of the allowed shapes, and text between tags has no raw
    /// quote or angle bracket.
    private func isSafe(_ html: String) throws -> Bool {
        let tag = try Regex(#"^</?(p|br|hr|ul|ol|li|strong|em|b|i|u|s|blockquote|h3|h4|h5|h6|table|thead|tbody|tfoot|tr|th|td)>$|^<a href="https?://[^"<>]*" rel="nofollow noopener">$|^</a>$|^<t[dh]( (col|row)span="\d+")*>$"#)
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            let text = rest[..<open]
            if text.contains(where: { "\"'>".contains($0) }) { return false }
            guard let close = rest[open...].firstIndex(of: ">") else { return false }
            if try tag.wholeMatch(in: rest[open...close]) == nil { return false }
            rest = rest[rest.index(after: close)...]
        }
        return !rest.contains(where: { "\"'>".contains($0) })
    }

    @Test(arguments: [
        "<script>alert(1)</script>",
        "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
        "<img src=x onerror=alert(1)>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"JaVaScRiPt:alert(1)\">x</a>",
        "<a href=\"jav&#x61;script:alert(1)\">x</a>",
        "<a href=\" java\tscript:alert(1)\">x</a>",
        "<a href=\"data:text/html;base64,PHNjcmlwdD4=\">x</a>",
        "<p title=\"x\" onmouseover=\"alert(1)\">hover</p>",
        "\"onmouseover=\"alert(1)",
        "<a href=\"https://ok.example\" onclick=\"steal()\">ok</a>",
        "<a href='https://ok.example/\"onmouseover=alert(1)'>q</a>",
        "<svg><script>alert(1)</script></svg>",
        "<iframe src=\"https://evil.example\"></iframe>",
        "<style>body{display:none}</style>",
        "<div style=\"background:url(javascript:alert(1))\">x</div>",
        "<<script>script>alert(1)<</script>/script>",
        "<p>unclosed <b>bold",
        "<!-- <script>alert(1)</script> -->",
        "<scr<script>ipt>alert(1)</script>",
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
        "<td colspan=\"2\" onclick=\"x\">cell</td>",
    ])
    func xssPayloadsComeOutSafe(payload: String) throws {
        let (html, _) = HTMLSanitizer.sanitize(payload)
        #expect(try isSafe(html), "unsafe output: \(html)")
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.lowercased().contains("javascript:"))
    }

    /// Line ends come out as `\n` whatever a browser's textarea or a file sent (a fresh tester:
    /// a CRLF description changed on every import of its own export).
    @Test(arguments: [
        ("<p>one</p>\r\n<p>two</p>\r\nthree\r\nfour", "<p>one</p>\n<p>two</p>\nthree\nfour"),
        ("a\rb\r\rc", "a\nb\n\nc"),
        ("a\r\n\r\nb\n\rc", "a\n\nb\n\nc"),
        ("no breaks", "no breaks"),
    ])
    func lineEndsComeOutAsLineFeeds(input: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(input).html == expected)
        #expect(HTMLSanitizer.sanitize(expected).html == expected)
    }

    @Test func dropsScriptWithItsContent() {
        let result = HTMLSanitizer.sanitize("<p>Hi<script>alert('x')</script> there</p>")
        #expect(result.html == "<p>Hi there</p>")
        #expect(result.text == "Hi there")
    }

    @Test func dropsEventHandlerAttributesAndImages() {
        #expect(HTMLSanitizer.sanitize("<p onclick=\"x()\" class=c>a<img src=x onerror=alert(1)>b</p>").html == "<p>ab</p>")
    }

    @Test func escapesAttributeBreakoutInText() {
        #expect(HTMLSanitizer.sanitize("\" onmouseover=\"alert(1)").html == "&quot; onmouseover=&quot;alert(1)")
    }

    @Test func keepsHTTPLinksWithNofollow() {
        let result = HTMLSanitizer.sanitize("<a href=\"https://maker.example/care?a=1&amp;b=2\" target=_blank>Care</a>")
        #expect(result.html == "<a href=\"https://maker.example/care?a=1&amp;b=2\" rel=\"nofollow noopener\">Care</a>")
        #expect(result.text == "Care")
    }

    @Test func dropsJavascriptLinkButKeepsItsText() {
        #expect(HTMLSanitizer.sanitize("<a href=\"javascript:alert(1)\">Click</a>").html == "Click")
    }

    @Test func keepsTheSafeSubsetAndClosesOpenElements() {
        let result = HTMLSanitizer.sanitize("<h1>Title</h1><ul><li><strong>Oak</strong><li>Ash</ul><p>end")
        #expect(result.html == "<h3>Title</h3><ul><li><strong>Oak</strong></li><li>Ash</li></ul><p>end</p>")
        #expect(result.text == "Title\nOak\nAsh\nend")
    }

    @Test func decodesEntitiesForTextAndReescapesForHTML() {
        let result = HTMLSanitizer.sanitize("Fish &amp; chips &lt;3 &#8364;5&nbsp;only &bogus; 5 > 4")
        #expect(result.html == "Fish &amp; chips &lt;3 €5\u{A0}only &amp;bogus; 5 &gt; 4")
        #expect(result.text == "Fish & chips <3 €5 only &bogus; 5 > 4")
    }

    @Test func dropsCommentsAndStyles() {
        #expect(HTMLSanitizer.sanitize("a<!-- hidden -->b<style>p{}</style>c").html == "abc")
    }

    @Test func plainTextBecomesEscapedParagraphs() {
        let result = HTMLSanitizer.paragraphs(fromPlainText: "Line <1>\nline 2\n\nPara 2")
        #expect(result.html == "<p>Line &lt;1&gt;<br>line 2</p><p>Para 2</p>")
        #expect(result.text == "Line <1>\nline 2\nPara 2")
    }
}
