import Foundation
import HTTPServer
import ShopAPI
import ShopClient
import ShopStore
import ShopTestSupport
import ShopWeb
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ShopClient against the live server")
struct ShopClientTests {
    @Test func browsesCategoriesProductsAndOneProduct() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let client = live.client()

        #expect(Set(try await client.categories()) == ["Men's chairs", "Lamps"])
        let all = try await client.products()
        #expect(all.map(\.title) == ["Oak Chair", "Arc Lamp", "Desk Lamp"])
        #expect(try await client.products(limit: 1, sort: .desc).map(\.title) == ["Desk Lamp"])
        // A name that needs percent-encoding goes through the route printer, not string concatenation.
        #expect(try await client.products(inCategory: "Men's chairs").map(\.title) == ["Oak Chair"])
        #expect(try await client.products(inCategory: "Lamps", sort: .desc).map(\.title) == ["Desk Lamp", "Arc Lamp"])
        #expect(try await client.products(inCategory: "Nothing here") == [])

        let chair = try await client.product(id: all[0].id)
        #expect(chair.title == "Oak Chair" && chair.price == Decimal(string: "129")! && chair.currency == "USD")
        #expect(chair.image == live.baseURL.absoluteString + LiveShop.chairImage)
    }

    @Test func everyRequestIsPrintedFromTheRouteDeclarations() throws {
        let client = ShopClient(environment: .custom(URL(string: "https://shop.test/prefix/")!), transport: .unimplemented)
        let route = APIRoute.fakeStore(.category(name: "a b/ç", FakeStoreListQuery(limit: 2, sort: .desc)))
        let request = try client.urlRequest(for: route)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "https://shop.test/prefix" + route.request.url)
        #expect(route.request.url == "/api/products/category/a%20b%2F%C3%A7?limit=2&sort=desc")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func loginKeepsTheTokenAndLaterCallsSendItAsBearer() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.register(email: "ana@example.com", password: "Blue9sky!")
        let recorder = Recorder()
        let client = live.client(recorder.transport)

        let credentials = try await client.login(username: "ana@example.com", password: "Blue9sky!")
        #expect(client.credentials == credentials && credentials.accessToken.count == 32)
        let login = try #require(recorder.requests.last)
        #expect(login.httpMethod == "POST" && login.url?.path == "/api/auth/login")
        #expect(login.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(login.value(forHTTPHeaderField: "Authorization") == nil)
        let body = try JSONDecoder().decode(FakeStoreLogin.self, from: try #require(login.httpBody))
        #expect(body == FakeStoreLogin(username: "ana@example.com", password: "Blue9sky!"))

        _ = try await client.categories()
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer \(credentials.accessToken)")
        // The token is the server's: a signed-in session.
        let session = try #require(try live.shop.sessions.find(live.shop.sessionID(forCookie: credentials.accessToken)))
        #expect(session.userID != nil)

        client.signOut()
        _ = try await client.categories()
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func wrongPasswordIs401InvalidCredentialsAndKeepsNoToken() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        try live.register(email: "ana@example.com", password: "Blue9sky!")
        let sleeps = Sleeps()
        let client = live.client(retry: sleeps.policy())
        await #expect {
            try await client.login(username: "ana@example.com", password: "wrong")
        } throws: { error in
            guard case let .serverError(status, code, message) = error as? NetworkError else { return false }
            return status == 401 && code == "invalid_credentials" && message == "The username or password is wrong."
        }
        #expect(client.credentials == nil && sleeps.recorded.isEmpty)
    }

    @Test func unknownProductIsA404WithTheEnvelopesCode() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let sleeps = Sleeps()
        await #expect {
            try await live.client(retry: sleeps.policy()).product(id: 999)
        } throws: { error in
            guard case let .serverError(status, code, message) = error as? NetworkError else { return false }
            return status == 404 && code == "not_found" && message.contains("999")
        }
        #expect(sleeps.recorded.isEmpty, "a 404 is not retried")
    }

    @Test func aFailingStoreIsA500WithTheInternalCode() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        live.shop.environment.catalog = .failing
        let sleeps = Sleeps()
        let error = await #expect(throws: NetworkError.self) {
            try await live.client(retry: sleeps.policy()).categories()
        }
        #expect(error?.status == 500 && error?.code == "internal")
        #expect(error?.localizedDescription == "Something went wrong on our side.")
        #expect(sleeps.recorded.isEmpty, "a 500 is not retried")
    }

    @Test func a500WithoutTheEnvelopeKeepsItsTextAsTheMessage() async throws {
        try await withServer({ _ in .text("database on fire\n", status: .internalServerError) }) { (url: URL) async throws in
            let client = ShopClient(environment: .custom(url), retry: .never)
            await #expect {
                try await client.categories()
            } throws: { error in
                guard case let .serverError(status, code, message) = error as? NetworkError else { return false }
                return status == 500 && code == nil && message == "database on fire"
            }
        }
    }

    @Test func aMalformedAnswerIsADecodingError() async throws {
        try await withServer({ request in
            switch request.path {
            case "/api/products": Response(status: .ok, headers: ["Content-Type": "application/json"],
                                           body: Array(#"[{"id": "one", "title": "Chair"}]"#.utf8))
            case "/api/products/categories": .text("<html>not json</html>")
            default: Response(status: .ok)
            }
        }) { (url: URL) async throws in
            let client = ShopClient(environment: .custom(url), retry: .never)
            await #expect {
                try await client.products()
            } throws: { error in
                guard case let .decodingError(detail) = error as? NetworkError else { return false }
                return detail.contains("[0].id")
            }
            await #expect {
                try await client.categories()
            } throws: { error in
                if case .decodingError = error as? NetworkError { true } else { false }
            }
            await #expect {
                try await client.product(id: 1)
            } throws: { error in
                if case .noData = error as? NetworkError { true } else { false }
            }
        }
    }

    @Test func aRefusedConnectionIsOfflineAndGetsAreRetried() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let url = closed.url
        let sleeps = Sleeps()
        let client = ShopClient(environment: .custom(url), retry: sleeps.policy(maxAttempts: 3))
        await #expect {
            try await client.categories()
        } throws: { error in
            if case .offline = error as? NetworkError { true } else { false }
        }
        #expect(sleeps.recorded == [.milliseconds(300), .milliseconds(600)], "three attempts, back-off doubling")

        let postSleeps = Sleeps()
        let poster = ShopClient(environment: .custom(url), retry: postSleeps.policy(maxAttempts: 3))
        await #expect {
            try await poster.login(username: "a@example.com", password: "x")
        } throws: { error in
            if case .offline = error as? NetworkError { true } else { false }
        }
        #expect(postSleeps.recorded.isEmpty, "a POST is never sent twice")
    }

    @Test func aGetIsRetriedOn503HonouringRetryAfter() async throws {
        let calls = Counter()
        try await withServer({ _ in
            if calls.next() <= 2 {
                var busy = Response.text("busy", status: .serviceUnavailable)
                busy.headers.replaceOrAdd(name: "Retry-After", value: "2")
                return busy
            }
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"["Lamps"]"#.utf8))
        }) { (url: URL) async throws in
            let sleeps = Sleeps()
            let client = ShopClient(environment: .custom(url), retry: sleeps.policy(maxAttempts: 3))
            #expect(try await client.categories() == ["Lamps"])
            #expect(calls.value == 3)
            #expect(sleeps.recorded == [.seconds(2), .seconds(2)])
        }
    }

    @Test func aPostIsNotRetriedOn503() async throws {
        let calls = Counter()
        try await withServer({ _ in
            _ = calls.next()
            return .text("busy", status: .serviceUnavailable)
        }) { (url: URL) async throws in
            let sleeps = Sleeps()
            let client = ShopClient(environment: .custom(url), retry: sleeps.policy(maxAttempts: 5))
            let error = await #expect(throws: NetworkError.self) {
                try await client.login(username: "a@example.com", password: "x")
            }
            #expect(error?.status == 503)
            #expect(calls.value == 1 && sleeps.recorded.isEmpty)
        }
    }

    @Test func retriesAreBoundedAndOnlyFor502To504() async throws {
        let calls = Counter()
        try await withServer({ request in
            _ = calls.next()
            return .text("gateway", status: request.path.hasSuffix("categories") ? 502 : 501)
        }) { (url: URL) async throws in
            let sleeps = Sleeps()
            let client = ShopClient(environment: .custom(url), retry: sleeps.policy(maxAttempts: 4))
            let error = await #expect(throws: NetworkError.self) { try await client.categories() }
            #expect(error?.status == 502 && calls.value == 4)
            #expect(sleeps.recorded == [.milliseconds(300), .milliseconds(600), .milliseconds(1200)])

            let notRetried = await #expect(throws: NetworkError.self) { try await client.products() }
            #expect(notRetried?.status == 501 && calls.value == 5)
        }
    }

    @Test func aRetryAfterLongerThanTheCapIsNotWaitedFor() {
        let policy = RetryPolicy(maxDelay: .seconds(8))
        let busy = NetworkError.serverError(status: 503, code: "busy", message: "")
        #expect(policy.delay(after: 1, method: "GET", error: busy, retryAfter: .seconds(5)) == .seconds(5))
        #expect(policy.delay(after: 1, method: "GET", error: busy, retryAfter: .seconds(60)) == nil)
        #expect(policy.delay(after: 1, method: "PUT", error: .offline) == .milliseconds(300))
        #expect(policy.delay(after: 1, method: "POST", error: .offline) == nil)
        #expect(policy.delay(after: 3, method: "GET", error: .offline) == nil)
        #expect(policy.delay(after: 1, method: "GET", error: .noData) == nil)
    }

    @Test func aBaseURLThatIsNotHTTPIsAnInvalidURL() async {
        let client = ShopClient(environment: .custom(URL(string: "file:///tmp/shop")!), transport: .unimplemented)
        await #expect {
            try await client.categories()
        } throws: { error in
            if case .invalidURL = error as? NetworkError { true } else { false }
        }
    }

    @Test func environments() {
        #expect(ShopClient.Environment.development.baseURL.absoluteString == "http://127.0.0.1:8080")
        #expect(ShopClient.Environment.production.baseURL.absoluteString == "https://shop.example")
        #expect(ShopClient(environment: .development).environment == .development)
    }

    @Test func a401IsRefreshedOnceThroughTheSeam() async throws {
        let calls = Counter()
        try await withServer({ request in
            _ = calls.next()
            guard request.headers["Authorization"] == "Bearer fresh" else {
                return Response(status: .unauthorized, headers: ["Content-Type": "application/json"],
                                body: Array(#"{"error": {"code": "expired", "message": "Sign in again."}}"#.utf8))
            }
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: Array(#"["Lamps"]"#.utf8))
        }) { (url: URL) async throws in
            let refreshes = Counter()
            let renewing = ShopClient(environment: .custom(url), credentials: Credentials(accessToken: "stale", refreshToken: "r"),
                                      refresher: TokenRefresher { refused in
                                          _ = refreshes.next()
                                          return refused.refreshToken == "r" ? Credentials(accessToken: "fresh", refreshToken: "r2") : nil
                                      })
            #expect(try await renewing.categories() == ["Lamps"])
            #expect(renewing.credentials == Credentials(accessToken: "fresh", refreshToken: "r2"))
            #expect(refreshes.value == 1 && calls.value == 2)

            let expired = ShopClient(environment: .custom(url), credentials: Credentials(accessToken: "stale"),
                                     refresher: TokenRefresher { _ in nil })
            let error = await #expect(throws: NetworkError.self) { try await expired.categories() }
            #expect(error?.status == 401 && error?.code == "expired")
            #expect(expired.credentials == nil, "signed out when the refresh token is refused")
        }
    }
}
