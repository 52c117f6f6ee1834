import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding a marker or tag in a rendered page's bytes — the one home of it for the personalizer,
/// the cached-page joiner and the onboarding insert.
enum ByteSearch {
    /// The first index of `needle` in `haystack` at or after `start`, if any.
    ///
    /// `memchr` for one byte of the needle, then `memcmp` for the whole: the needle's second byte
    /// when it has one (`!` of `<!--`, `-` of `-->`), far rarer in HTML than the `<` that starts
    /// every tag.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, start >= 0, needle.count <= haystack.count,
              start <= haystack.count - needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                let anchor = pin.count > 1 ? 1 : 0
                var position = start + anchor
                let last = hay.count - pin.count + anchor
                while position <= last {
                    guard let hit = memchr(base + position, Int32(pinBase[anchor]), last - position + 1) else { return nil }
                    let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
                    if memcmp(base + index, pinBase, pin.count) == 0 { return index }
                    position = index + anchor + 1
                }
                return nil
            }
        }
    }

    /// The last index of `needle` in `haystack`, if any — for a tag near the end (`</body>`),
    /// so a backward scan reaches it after a few hundred bytes.
    static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                var index = hay.count - pin.count
                while index >= 0 {
                    if base[index] == pinBase[0], memcmp(base + index, pinBase, pin.count) == 0 { return index }
                    index -= 1
                }
                return nil
            }
        }
    }
}
