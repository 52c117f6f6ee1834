import Foundation
import ShopCore
import ShopStore
import ShopTestSupport
import Synchronization
import Testing

/// The API token contract every engine must meet (issue #10's tokens; on PostgreSQL since
/// issue #15): pairs stored by hash, found by the access token's hash with their session,
/// rotated once, reuse ending the session.
@Suite("API token store contract")
struct APITokenStoreContractTests {
    static func pair(_ name: String, session: Session.ID = "session-1", expiresIn: TimeInterval = 900) -> APITokenPair {
        APITokenPair(sessionID: session, accessTokenHash: "access-\(name)", accessExpiresAt: Fixtures.start.addingTimeInterval(expiresIn),
                     refreshTokenHash: "refresh-\(name)", createdAt: Fixtures.start)
    }

    @Test(arguments: StoreKind.engines(for: .apiTokens))
    func aPairIsFoundByItsAccessTokenWithItsSession(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let user = try stores.account()
        let session = try stores.session("session-1", user: user.id)
        try stores.apiTokens.issue(Self.pair("a"))
        let found = try #require(try stores.apiTokens.session("access-a"))
        #expect(found.session == session && found.accessExpiresAt == Fixtures.start.addingTimeInterval(900))
        #expect(try stores.apiTokens.session("access-unknown") == nil)
        #expect(try stores.apiTokens.session("refresh-a") == nil, "a refresh token is not an access token")
        #expect(throws: SessionStoreError.sessionNotFound("nobody")) {
            try stores.apiTokens.issue(Self.pair("b", session: "nobody"))
        }
    }

    @Test(arguments: StoreKind.engines(for: .apiTokens))
    func aRefreshTokenRotatesOnceAndItsReuseEndsTheSession(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let session = try stores.session("session-1")
        try stores.apiTokens.issue(Self.pair("a"))
        let later = Fixtures.start.addingTimeInterval(600)
        // The next pair's session is the spent pair's, whatever it says.
        let rotated = try stores.apiTokens.rotate("refresh-a", Self.pair("b", session: "ignored"), later, Fixtures.start)
        #expect(rotated == .rotated(session))
        #expect(try stores.apiTokens.session("access-b")?.session == session)
        #expect(try stores.apiTokens.rotate("refresh-unknown", Self.pair("c"), later, Fixtures.start) == .unknown)
        // The spent token again: reuse. The session and all its pairs end.
        #expect(try stores.apiTokens.rotate("refresh-a", Self.pair("d"), later, Fixtures.start) == .reused)
        #expect(try stores.sessions.find("session-1") == nil)
        #expect(try stores.apiTokens.session("access-b") == nil && stores.apiTokens.session("access-a") == nil)
        #expect(try stores.apiTokens.rotate("refresh-b", Self.pair("e"), later, Fixtures.start) == .unknown)
    }

    @Test(arguments: StoreKind.engines(for: .apiTokens))
    func spentTokensAreForgottenAfterTheirTime(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.session("session-1")
        try stores.apiTokens.issue(Self.pair("a"))
        let first = Fixtures.start.addingTimeInterval(60)
        _ = try stores.apiTokens.rotate("refresh-a", Self.pair("b"), first, Fixtures.start)
        // Spent at `first`; forgotten by a rotation that forgets what was spent before `first + 1`.
        _ = try stores.apiTokens.rotate("refresh-b", Self.pair("c"), first.addingTimeInterval(60), first.addingTimeInterval(1))
        #expect(try stores.apiTokens.rotate("refresh-a", Self.pair("d"), first.addingTimeInterval(120), first) == .unknown,
                "forgotten: no longer known as spent, so not taken for reuse")
        #expect(try stores.apiTokens.session("access-c") != nil)
    }

    @Test(arguments: StoreKind.engines(for: .apiTokens))
    func endingTheSessionEndsItsTokens(kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        try stores.session("session-1")
        try stores.session("session-2")
        try stores.apiTokens.issue(Self.pair("a"))
        try stores.apiTokens.issue(Self.pair("b", session: "session-2"))
        try stores.sessions.delete("session-1")
        #expect(try stores.apiTokens.session("access-a") == nil)
        #expect(try stores.apiTokens.session("access-b") != nil)
    }

    /// Two uses of one refresh token at the same moment, on the pooled engines: exactly one
    /// rotates and the other is reuse (which ends the session).
    @Test(arguments: StoreKind.engines(for: .apiTokens).filter { $0 != .sqlite })
    func twoUsesAtOnceRotateOnce(kind: StoreKind) throws {
        for round in 0..<10 {
            let stores = try StoreHarness(kind, poolSize: 4)
            try stores.session("session-1")
            try stores.apiTokens.issue(Self.pair("a"))
            let tokens = stores.apiTokens
            let outcomes = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let outcome: String
                do {
                    switch try tokens.rotate("refresh-a", Self.pair("next-\(index)"), Fixtures.start, Fixtures.start) {
                    case .rotated: outcome = "rotated"
                    case .reused: outcome = "reused"
                    case .unknown: outcome = "unknown"
                    }
                } catch {
                    outcome = "\(error)"
                }
                outcomes.withLock { $0.append(outcome) }
            }
            #expect(outcomes.withLock { $0.sorted() } == ["reused", "rotated"], "round \(round)")
            #expect(try stores.sessions.find("session-1") == nil, "round \(round)")
        }
    }
}
