import Sodium
import Testing

@Suite("libsodium initialisation")
struct SodiumInitializeTests {
    @Test func initializeCanBeCalledRepeatedly() throws {
        try Sodium.initialize()
        try Sodium.initialize()
    }

    @Test func initializeIsSafeFromManyTasksAtOnce() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask { try Sodium.initialize() }
            }
            try await group.waitForAll()
        }
    }

    @Test func errorDescriptionNamesTheOperationAndCode() {
        let error = SodiumError(operation: "crypto_pwhash_str", code: SodiumError.invalidInputCode, message: "bad")
        #expect(error.description == "crypto_pwhash_str failed (errno \(SodiumError.invalidInputCode)): bad")
        #expect(error.isInvalidInput)
        #expect(!SodiumError(operation: "x", code: SodiumError.outOfMemoryCode, message: "m").isInvalidInput)
    }
}
