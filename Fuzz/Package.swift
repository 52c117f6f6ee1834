// swift-tools-version:6.2
import PackageDescription

// libFuzzer targets for Shoppable's parsers: one executable per target, built only by
// `Fuzz/run` (`make fuzz`, `make fuzz-smoke`) with
//   swift build --package-path Fuzz --scratch-path .build/fuzz -Xswiftc -sanitize=fuzzer,address
// which instruments this package and the Shoppable modules it uses. A separate package, so
// `swift build` / `swift test` of Shoppable never build these: they link only with
// `-sanitize=fuzzer`, which brings in libFuzzer. See docs/SECURITY.md §4.

// Each is Sources/fuzz-<name>/main.swift (Fuzz/run finds them by that folder name).
let fuzzTargets: [(name: String, uses: [String])] = [
    ("csv", ["ShopImport"]),
    ("shopify-csv", ["ShopImport"]),
    ("woocommerce-csv", ["ShopImport"]),
    ("fakestore-json", ["ShopImport"]),
    ("seed-json", ["ShopImport"]),
    ("shoppable-json", ["ShopImport"]),
    ("catalog-detect", ["ShopImport"]),
    ("campaign-file", ["ShopImport"]),
    ("shop-config", ["ShopImport", "ShopCore"]),
    ("html-sanitizer", ["ShopImport"]),
    ("url-encoding", ["HTTPServer"]),
    ("cookie", ["HTTPServer"]),
    ("request", ["HTTPServer"]),
]

// The main package's strict settings (its Package.swift applies them in a loop).
let strict: [SwiftSetting] = ["ExistentialAny", "MemberImportVisibility", "InternalImportsByDefault"]
    .map { .enableUpcomingFeature($0) }

let package = Package(
    name: "ShoppableFuzz",
    dependencies: [.package(name: "Shoppable", path: "..")],
    targets: [
        // libFuzzer's `LLVMFuzzerRunDriver`, declared for Swift.
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "ShopCore", package: "Shoppable"),
                .product(name: "ShopImport", package: "Shoppable"),
            ],
            swiftSettings: strict
        ),
    ] + fuzzTargets.map { target in
        .executableTarget(
            name: "fuzz-\(target.name)",
            dependencies: ["FuzzSupport"] + target.uses.map { .product(name: $0, package: "Shoppable") },
            swiftSettings: strict,
            // gold fails on the `main` SwiftPM renames next to libFuzzer's own; lld links it.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        )
    },
    swiftLanguageModes: [.v6]
)

