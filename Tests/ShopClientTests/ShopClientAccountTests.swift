import Foundation
import ShopAPI
import ShopClient
import ShopCore
import ShopTestSupport
import ShopWeb
import Synchronization
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let home = V1Address(firstName: "Ana", lastName: "Lima", phone: "+1 555 0100", line1: "1 Main St",
                             city: "Springfield", postalCode: "12345", country: "US")

/// A live shop whose access tokens last a minute, and a client with a signed-in account.
private func signedIn(_ recorder: Recorder? = nil) async throws -> (LiveShop, ShopClient) {
    let live = try LiveShop()
    live.shop.environment.accessTokenLifetime = 60
    let client = recorder.map { live.client($0.transport) } ?? live.client()
    try await client.v1.register(email: "ana@example.com", password: "Blue9sky!", name: "Ana Lima")
    try await client.v1.signIn(email: "ana@example.com", password: "Blue9sky!")
    return (live, client)
}

/// The status and code of the error `body` throws, or nil when it throws none.
private func refusal(_ body: () async throws -> Void) async -> (status: Int, code: String?)? {
    do {
        try await body()
        return nil
    } catch {
        guard case let .serverError(status, code, _)? = error as? NetworkError else { return (0, "\(error)") }
        return (status, code)
    }
}

private func refreshes(_ recorder: Recorder) -> Int {
    recorder.requests.filter { $0.url?.path == "/api/v1/auth/refresh" }.count
}

@Suite("ShopClient: account, tokens and refresh against the live server")
struct ShopClientAccountTests {
    @Test func anExpiredAccessTokenIsRefreshedAndTheRequestRetried() async throws {
        let recorder = Recorder()
        let (live, client) = try await signedIn(recorder)
        defer { live.stop() }
        let first = try #require(client.credentials)
        #expect(first.refreshToken != nil)
        let observed = Mutex<[Credentials?]>([])
        client.onCredentialsRenewed { credentials in observed.withLock { $0.append(credentials) } }
        #expect(try await client.v1.account().email == "ana@example.com")

        live.shop.clock.advance(by: 61)
        #expect(try await client.v1.account().email == "ana@example.com")
        let renewed = try #require(client.credentials)
        #expect(renewed.accessToken != first.accessToken && renewed.refreshToken != first.refreshToken)
        #expect(refreshes(recorder) == 1)
        // The app is told, to save the rotated pair (the old refresh token is spent).
        #expect(observed.withLock { $0 } == [renewed])
    }

    @Test func simultaneousRefusalsShareOneRefresh() async throws {
        let recorder = Recorder()
        let (live, client) = try await signedIn(recorder)
        defer { live.stop() }
        live.shop.clock.advance(by: 61)
        let emails = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 { group.addTask { try await client.v1.account().email } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(emails == Array(repeating: "ana@example.com", count: 6))
        #expect(refreshes(recorder) == 1, "one refresh for six refused requests (a second would be reuse)")
        #expect(try await client.v1.account().verified == false, "still signed in")
    }

    @Test func aReusedRefreshTokenSignsOut() async throws {
        let (live, client) = try await signedIn()
        defer { live.stop() }
        let stolen = try #require(client.credentials)
        live.shop.clock.advance(by: 61)
        _ = try await client.v1.account()  // refreshes: `stolen.refreshToken` is spent
        let current = try #require(client.credentials)

        client.setCredentials(stolen)  // the copy is used after the owner refreshed
        await #expect(throws: NetworkError.self) { try await client.v1.account() }
        #expect(client.credentials == nil, "a failed refresh clears the credentials")
        let refused = await refusal { _ = try await client.v1.account() }
        #expect(refused?.status == 401 && refused?.code == "unauthorized")
        client.setCredentials(current)
        await #expect(throws: NetworkError.self, "the whole session ended") { try await client.v1.account() }
        #expect(client.credentials == nil)
    }

    @Test func signOutEndsTheSessionOnTheShop() async throws {
        let (live, client) = try await signedIn()
        defer { live.stop() }
        let kept = try #require(client.credentials)
        try await client.v1.signOut(everywhere: false)
        #expect(client.credentials == nil)
        client.setCredentials(kept)
        await #expect(throws: NetworkError.self) { try await client.v1.account() }
    }

    @Test func campaignsAddressesAndPasswordResetAreNamedCalls() async throws {
        let (live, client) = try await signedIn()
        defer { live.stop() }
        #expect(try await client.v1.campaigns().isEmpty)
        let saved = try await client.v1.addAddress(home, isDefault: true)
        #expect(try await client.v1.addresses().map(\.id) == [saved.id])
        var moved = home
        moved.city = "Shelbyville"
        #expect(try await client.v1.updateAddress(id: saved.id, moved).address.city == "Shelbyville")
        try await client.v1.deleteAddress(id: saved.id)
        #expect(try await client.v1.addresses().isEmpty)
        let invalid = await refusal { _ = try await client.v1.addAddress(V1Address(firstName: "Ana")) }
        #expect(invalid?.status == 400 && invalid?.code == "invalid_address")
        #expect(try await client.v1.requestPasswordReset(email: "nobody@example.com").message.contains("nobody@example.com"))
        let wrong = await refusal { try await client.v1.signIn(email: "ana@example.com", password: "Wrong9sky!") }
        #expect(wrong?.status == 401 && wrong?.code == "invalid_credentials")
    }
}
