// swift-tools-version:6.2
import PackageDescription

// Shoppable: one package, one module per layer; dependencies point inward.
// See docs/ARCHITECTURE.md for what each module is and may import.

let package = Package(
    name: "Shoppable",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "ShopCore", targets: ["ShopCore"]),
        .library(name: "ShopAPI", targets: ["ShopAPI"]),
        .library(name: "ShopClient", targets: ["ShopClient"]),
        .library(name: "ShopKit", targets: ["ShopKit"]),
        // Also products so the fuzzing package (Fuzz/Package.swift) can depend on them by path.
        .library(name: "ShopImport", targets: ["ShopImport"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .executable(name: "shoppable", targets: ["shoppable"]),
        .executable(name: "shoppable-tour", targets: ["shoppable-tour"]),
    ],
    targets: [
        // MARK: - shared (Foundation only; an iOS app can embed these)

        // Its string tables (`Localizable/<code>.json`) hold the messages of its own errors.
        .target(name: "ShopCore", resources: [.copy("Localizable")]),
        .target(name: "HTML"),
        // The JSON API's contract: route declarations and wire types, shared by the server and
        // `ShopClient` (Foundation only: an iOS app embeds it).
        .target(name: "ShopAPI"),
        // The native app's client of the JSON API: requests printed from `ShopAPI`'s routes,
        // typed errors, bearer credentials, retries, image cache. Foundation (+ FoundationNetworking
        // on Linux) only, no C: it builds unchanged for iOS.
        .target(name: "ShopClient", dependencies: ["ShopAPI"]),
        // The native app's view models, one per screen, and its navigation as data: Foundation,
        // Observation and Synchronization only (builds unchanged for iOS). See docs/NATIVE.md.
        .target(name: "ShopKit", dependencies: ["ShopClient", "ShopAPI", "ShopCore"]),
        // A whole shopping trip through ShopKit's models, headless: `TourTests` (make test) and
        // `shoppable-tour URL` (against a running shop) run it.
        .target(name: "ShopKitTour", dependencies: ["ShopKit", "ShopClient", "ShopAPI", "ShopCore"]),
        .executableTarget(name: "shoppable-tour", dependencies: ["ShopKitTour", "ShopKit", "ShopClient", "ShopCore"]),

        // MARK: - C libraries (Debian packages), each behind one thin Swift wrapper

        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
        ),
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // No pkg-config file in Debian's package: the module map links `stemmer` itself.
        .systemLibrary(
            name: "CStemmer",
            providers: [.apt(["libstemmer-dev"])]
        ),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        .target(name: "Sodium", dependencies: ["CSodium"]),
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        .target(name: "LibCrypto", dependencies: ["CLibCrypto"]),
        .target(name: "Mailer", dependencies: ["CCurl"]),
        // http(s) downloads for `import --fetch-images`: SSRF rules, byte cap, time limits.
        .target(name: "Fetch", dependencies: ["CCurl"]),
        .target(name: "Zlib", dependencies: ["CZlib"]),
        .target(name: "LibDeflate", dependencies: ["CLibDeflate"]),
        .target(name: "Brotli", dependencies: ["CBrotli"]),
        .target(name: "Stemmer", dependencies: ["CStemmer"]),
        .target(name: "Vips", dependencies: ["CVips"]),

        // MARK: - server

        // Stemmer: the search index's word stems are a rule every engine shares.
        .target(name: "ShopStore", dependencies: ["ShopCore", "Stemmer"]),
        .target(name: "ShopStoreSQLite", dependencies: ["ShopStore", "ShopCore", "SQLite", "Sodium"]),
        // The same store contracts on PostgreSQL (issue #15): the stores ported so far.
        .target(name: "ShopStorePostgres", dependencies: ["ShopStore", "ShopCore", "Postgres", "Sodium"]),
        .target(name: "ShopImport", dependencies: ["ShopCore"], resources: [.copy("Localizable")]),
        // The use cases (cart, checkout, sessions, accounts, catalog import): every shop rule the
        // storefront, the JSON API and the CLI share. No HTTP, no HTML, no C.
        .target(name: "ShopService", dependencies: ["ShopCore", "ShopStore", "ShopImport"]),
        .target(
            name: "ShopWeb",
            dependencies: ["ShopCore", "ShopStore", "ShopService", "ShopImport", "ShopAPI", "HTML", "HTTPServer", "Zlib", "LibDeflate", "Brotli"],
            resources: [.copy("Public"), .copy("Localizable")]
        ),
        .target(name: "ShopWebLive", dependencies: ["ShopWeb", "ShopService", "ShopCore", "ShopImport", "Sodium", "Vips", "Fetch",
                                                    "LibCrypto", "QRCode"]),
        .executableTarget(
            name: "shoppable",
            dependencies: ["ShopCore", "ShopStore", "ShopStoreSQLite", "ShopStorePostgres", "ShopImport", "ShopService", "ShopWeb",
                           "ShopWebLive", "HTTPServer", "Sodium", "Mailer"],
            resources: [.copy("DemoCatalog")]
        ),

        // MARK: - tests

        .target(
            name: "ShopTestSupport",
            dependencies: ["ShopCore", "ShopStore", "ShopStoreSQLite", "ShopService", "HTTPServer", "ShopWeb", "ShopWebLive", "Sodium", "ShopClient"],
            path: "Tests/ShopTestSupport"
        ),
        .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore", "LibCrypto"]),
        .testTarget(name: "HTMLTests", dependencies: ["HTML"]),
        .testTarget(name: "RoutingTests", dependencies: ["ShopAPI"]),
        .testTarget(name: "ShopAPITests", dependencies: ["ShopAPI"]),
        .testTarget(
            name: "ShopClientTests",
            dependencies: ["ShopClient", "ShopAPI", "ShopWeb", "ShopCore", "ShopStore", "HTTPServer", "ShopTestSupport"]
        ),
        .testTarget(
            name: "ShopKitTests",
            dependencies: ["ShopKit", "ShopKitTour", "ShopClient", "ShopAPI", "ShopCore", "ShopWeb", "ShopStore", "HTTPServer",
                           "ShopTestSupport"]
        ),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        // Needs a server: SHOPPABLE_TEST_POSTGRES_URL (`make test` starts one); skipped without it.
        .testTarget(name: "PostgresTests", dependencies: ["Postgres"]),
        .testTarget(name: "SodiumTests", dependencies: ["Sodium"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"]),
        .testTarget(name: "LibCryptoTests", dependencies: ["LibCrypto"]),
        .testTarget(name: "MailerTests", dependencies: ["Mailer"]),
        .testTarget(name: "FetchTests", dependencies: ["Fetch", "HTTPServer", "ShopTestSupport"]),
        .testTarget(name: "ZlibTests", dependencies: ["Zlib"]),
        .testTarget(name: "LibDeflateTests", dependencies: ["LibDeflate", "Zlib"]),
        .testTarget(name: "BrotliTests", dependencies: ["Brotli"]),
        .testTarget(name: "StemmerTests", dependencies: ["Stemmer"]),
        .testTarget(name: "VipsTests", dependencies: ["Vips"]),
        .testTarget(
            name: "ShopStoreTests",
            dependencies: ["ShopStore", "ShopStoreSQLite", "ShopStorePostgres", "Postgres", "SQLite", "Sodium", "ShopCore",
                           "ShopTestSupport", "ShopService"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "ShopServiceTests",
            dependencies: ["ShopService", "ShopCore", "ShopStore", "ShopStoreSQLite", "ShopTestSupport", "ShopWebLive", "Vips",
                           "ShopImport", "HTTPServer"]
        ),
        .testTarget(
            name: "ShopImportTests",
            dependencies: ["ShopImport", "ShopCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ShopWebTests",
            dependencies: ["ShopWeb", "ShopCore", "ShopStore", "ShopService", "ShopAPI", "ShopStoreSQLite", "HTTPServer", "HTML", "ShopTestSupport",
                           "ShopImport"],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings for every Swift target, in one place.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
