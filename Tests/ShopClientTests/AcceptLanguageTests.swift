import Foundation
import ShopAPI
import ShopClient
import ShopTestSupport
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ShopClient: Accept-Language")
struct AcceptLanguageTests {
    @Test func everyRequestCarriesTheAppsLanguageAndTheServerAnswersInIt() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let recorder = Recorder()
        let client = live.client(recorder.transport, retry: .never)
        #expect(client.acceptLanguage == nil)

        func notFoundMessage() async -> String? {
            do {
                _ = try await client.v1.product(handle: "no-such-product")
                return nil
            } catch {
                return error.errorDescription
            }
        }
        let english = await notFoundMessage()
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Accept-Language") == nil)

        client.setAcceptLanguage("tr")
        let turkish = await notFoundMessage()
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "Accept-Language") == "tr")
        #expect(english != nil && turkish != nil && english != turkish)

        let spanish = ShopClient(environment: .custom(live.baseURL), transport: .unimplemented, acceptLanguage: "es")
        #expect(try spanish.urlRequest(for: .v1(.cart)).value(forHTTPHeaderField: "Accept-Language") == "es")
    }
}
