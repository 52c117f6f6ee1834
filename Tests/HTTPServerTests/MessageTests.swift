import HTTPServer
import Testing

@Suite("Headers, requests and responses")
struct MessageTests {
    @Test func headerLookupIgnoresCase() {
        let headers: HTTPHeaders = ["Content-Type": "text/html", "X-Custom": "1"]
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers.contains("x-custom"))
        #expect(headers["missing"] == nil)
    }

    @Test func removeTakesEveryFieldOfTheNameInAnyCaseAndLeavesOthers() {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Other", value: "keep")
        headers.add(name: "set-cookie", value: "b=2")
        let copy = headers
        headers.remove(name: "Missing")
        #expect(Array(headers.map(\.name)) == ["Set-Cookie", "X-Other", "set-cookie"])
        headers.remove(name: "SET-COOKIE")
        #expect(Array(headers.map(\.name)) == ["X-Other"] && headers["x-other"] == "keep")
        #expect(copy.count == 3, "a copy keeps its fields")
    }

    @Test func addKeepsDuplicatesInOrder() {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.count == 2)
    }

    @Test func subscriptAssignmentReplacesAllAndNilRemoves() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        headers["a"] = "x"
        #expect(headers.map(\.name) == ["A", "B"])
        #expect(headers["A"] == "x")
        headers["b"] = nil
        #expect(headers.map(\.name) == ["A"])
    }

    @Test func requestFromTargetSplitsAndDecodesPathAndQuery() throws {
        let request = try Request(target: "/products/oak%20chair?q=oak+chair&page=2")
        #expect(request.path == "/products/oak chair")
        #expect(request.rawPath == "/products/oak%20chair")
        #expect(request.queryValue("q") == "oak chair")
        #expect(request.queryValue("page") == "2")
        #expect(request.queryValue("none") == nil)
    }

    @Test func requestFromAbsoluteFormTargetDropsSchemeAndHost() throws {
        let request = try Request(target: "http://example.com:8080/a%2Bb?x=1")
        #expect(request.path == "/a+b")
        #expect(request.queryValue("x") == "1")
    }

    /// An absolute-form target's authority ends at the first `/`, `?` or `#` (RFC 3986 §3.2), the
    /// scheme in any case: a fresh tester's `http://host?/admin` was served `/admin`, which a
    /// proxy reading the URL right sees as `/` with a query.
    @Test(arguments: [
        ("http://h?/admin", "/", "/admin"), ("HTTP://h/cart", "/cart", nil), ("Https://h:8443/x?y=1", "/x", "y"),
        ("http://h", "/", nil), ("http://h?lang=tr", "/", "lang"), ("https://h/?", "/", nil),
    ] as [(String, String, String?)])
    func absoluteFormTargetsEndTheirAuthorityAtSlashOrQuery(target: String, path: String, firstQueryName: String?) throws {
        let request = try Request(target: target)
        #expect(request.path == path)
        #expect(request.query.first?.name == firstQueryName)
    }

    @Test(arguments: ["products", "", "?q=1", "http://", "https://?x", "http://h#/favorites", "http://h/a#b", "*",
                      "ftp://h/a"])
    func requestTargetMustBeOriginForm(_ target: String) {
        #expect(throws: RequestDecodingError.invalidTarget) { try Request(target: target) }
    }

    /// `*` is the target of `OPTIONS` only (RFC 9112 §3.2.4).
    @Test func anAsteriskIsTheTargetOfOptionsOnly() throws {
        #expect(try Request(method: .options, target: "*").path == "*")
        #expect(throws: RequestDecodingError.invalidTarget) { try Request(method: .get, target: "*") }
    }

    @Test func requestDerivesCookiesAndFormFromHeadersAndBody() throws {
        let request = try Request(
            method: .post, path: "/cart/add",
            headers: [
                "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
                "Cookie": "sid=abc; lang=tr",
            ],
            body: Array("product=12&quantity=2".utf8))
        #expect(request.cookies == ["sid": "abc", "lang": "tr"])
        #expect(request.formValue("quantity") == "2")
        #expect(request.formValue("product") == "12")
        #expect(request.rawPath == "/cart/add")
    }

    @Test func onlyURLEncodedBodiesBecomeForms() throws {
        let request = try Request(
            method: .post, headers: ["Content-Type": "application/json"], body: Array("a=1".utf8))
        #expect(request.form.isEmpty)
        #expect(request.body == Array("a=1".utf8))
    }

    @Test func malformedFormBodyIsADecodingError() {
        #expect(throws: RequestDecodingError.invalidPercentEncoding(.form)) {
            try Request(
                method: .post, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("a=%".utf8))
        }
    }

    @Test func requestIDsAreSixteenHexDigitsAndDiffer() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<5_000).map { _ in Request.makeID() } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.allSatisfy { $0.utf8.count == 16 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(Set(ids).count == ids.count, "unique across threads")
        let first = Request.makeID(), second = Request.makeID()
        #expect(zip(first, second).filter { $0 != $1 }.count > 4, "neighbours look unrelated: \(first) \(second)")
    }

    @Test func textResponseIsUTF8PlainText() {
        let response = Response.text("çay", status: .notFound)
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.body == Array("çay".utf8))
    }

    @Test func redirectDefaultsToSeeOther() {
        let response = Response.redirect(to: "/cart")
        #expect(response.status.code == 303)
        #expect(response.headers["Location"] == "/cart")
        #expect(response.body.isEmpty)
    }

    @Test func setCookieAppendsAHeaderPerCookie() {
        var response = Response()
        response.setCookie(Cookie(name: "a", value: "1"))
        response.setCookie(Cookie(name: "b", value: "2"))
        #expect(response.headers.values(for: "Set-Cookie").count == 2)
    }

    @Test func statusDescriptionHasReasonPhrase() {
        #expect(HTTPStatus.requestHeaderFieldsTooLarge.description == "431 Request Header Fields Too Large")
        #expect(HTTPStatus(code: 299).description == "299")
    }
}
