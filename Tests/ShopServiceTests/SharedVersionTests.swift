import Foundation
@testable import ShopService
import Testing

@Suite("Shared version: the catalog's and the holds' ends")
struct SharedVersionTests {
    static let ends = [100.0, 200, 200.5, 300].map { Date(timeIntervalSince1970: $0) }

    /// A hold is live while now is before its end (`OrderStore.heldProducts`): an end at now
    /// has passed.
    @Test(arguments: [(0.0, 0), (99.9, 0), (100, 1), (150, 1), (200, 2), (200.5, 3), (299, 3), (300, 4), (1e9, 4)])
    func countsTheEndsAtOrBeforeNow(now: Double, passed: Int) {
        #expect(SharedVersion.passed(Self.ends, at: Date(timeIntervalSince1970: now)) == passed)
        #expect(SharedVersion.passed([], at: Date(timeIntervalSince1970: now)) == 0)
    }

    @Test func eachPairIsItsOwnVersion() {
        var seen: Set<Int64> = []
        for version in Int64(0)...50 {
            for passed in 0...50 { seen.insert(SharedVersion.combine(version, passed: passed)) }
        }
        #expect(seen.count == 51 * 51)
        #expect(SharedVersion.combine(7, passed: 0) == SharedVersion.combine(7, passed: 0))
    }
}
