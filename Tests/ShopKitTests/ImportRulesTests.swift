import Foundation
import Testing

/// The modules an iOS app embeds import nothing a phone does not have (issue #12).
@Suite("Import rules")
struct ImportRulesTests {
    static let allowed: Set<String> = [
        "Foundation", "FoundationNetworking", "Observation", "Synchronization", "ShopAPI", "ShopCore", "ShopClient",
    ]

    /// The package root: three levels above this file (`Tests/ShopKitTests/<file>`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The module each `import` line of `source` names (`public import`, `@testable import`,
    /// `import struct Foo.Bar` and `#if` blocks alike).
    static func imports(_ source: String) -> [String] {
        source.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                  words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains($0) })
            else { return nil }
            let kinds: Set = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
            let target = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
            return String(target.split(separator: ".").first ?? "")
        }
    }

    @Test func theScannerSeesEveryKindOfImport() {
        let source = """
        public import Foundation
        #if canImport(FoundationNetworking)
            import FoundationNetworking
        #endif
        @preconcurrency import Glibc
        import struct UIKit.UIColor
        // import Commented
        let important = 1
        """
        #expect(Self.imports(source) == ["Foundation", "FoundationNetworking", "Glibc", "UIKit"])
    }

    @Test(arguments: ["ShopKit", "ShopClient", "ShopCore"])
    func importsNothingOutsideFoundationAndTheSharedModules(_ module: String) throws {
        let directory = Self.root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty, "no sources under \(directory.path)")
        for file in files {
            let imported = Self.imports(try String(contentsOf: file, encoding: .utf8))
            for name in imported where !Self.allowed.contains(name) {
                Issue.record("\(module)/\(file.lastPathComponent) imports \(name)")
            }
        }
    }
}
