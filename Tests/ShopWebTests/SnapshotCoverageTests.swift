import Foundation
import HTTPServer
import ShopWeb
import Testing

/// Every route of the storefront has at least one snapshot, and every snapshot file belongs to a
/// test that still exists.
///
/// How: each snapshot file starts with its request line (`POST /cart/add`). The test parses every
/// one with the app's own `SiteRoute.parse`, so which route a snapshot covers is read from the
/// exchange itself, not declared by hand. `RouteCase` names every `SiteRoute` case through a
/// `switch` without `default`: a new route does not compile until it is added there, and then
/// this test fails until a snapshot covers it.
@Suite("Snapshot coverage")
struct SnapshotCoverageTests {
    /// The case of a route, without its values.
    enum RouteCase: String, CaseIterable {
        case home, categories, categorySearch, badge, layout, category, search, product, cart, cartAdd, cartUpdateLine,
             cartRemoveLine, campaigns, campaign, homeRecommendations, cartVoucher, cartVoucherRemove, cartSelectLine,
             cartSelectAll, addresses, addressNew, addressCreate, addressEdit, addressUpdate, addressDeleteConfirm,
             addressDelete, checkout, checkoutAddress, checkoutAddressSubmit, checkoutShipping, checkoutShippingSubmit,
             checkoutReview, checkoutPlace, orders, order, favorites, favoriteToggle, account, register, registerSubmit,
             signIn, signInSubmit, signOut, signOutEverywhere, verifyEmail, verifyResend, forgotPassword,
             forgotPasswordSubmit, resetPassword, resetPasswordSubmit, changePassword, health, asset, media

        init(_ route: SiteRoute) {
            switch route {
            case .home: self = .home
            case .categories: self = .categories
            case .categorySearch: self = .categorySearch
            case .badge: self = .badge
            case .layout: self = .layout
            case .category: self = .category
            case .search: self = .search
            case .product: self = .product
            case .cart: self = .cart
            case .cartAdd: self = .cartAdd
            case .cartUpdateLine: self = .cartUpdateLine
            case .cartRemoveLine: self = .cartRemoveLine
            case .campaigns: self = .campaigns
            case .campaign: self = .campaign
            case .homeRecommendations: self = .homeRecommendations
            case .cartVoucher: self = .cartVoucher
            case .cartVoucherRemove: self = .cartVoucherRemove
            case .cartSelectLine: self = .cartSelectLine
            case .cartSelectAll: self = .cartSelectAll
            case .addresses: self = .addresses
            case .addressNew: self = .addressNew
            case .addressCreate: self = .addressCreate
            case .addressEdit: self = .addressEdit
            case .addressUpdate: self = .addressUpdate
            case .addressDeleteConfirm: self = .addressDeleteConfirm
            case .addressDelete: self = .addressDelete
            case .checkout: self = .checkout
            case .checkoutAddress: self = .checkoutAddress
            case .checkoutAddressSubmit: self = .checkoutAddressSubmit
            case .checkoutShipping: self = .checkoutShipping
            case .checkoutShippingSubmit: self = .checkoutShippingSubmit
            case .checkoutReview: self = .checkoutReview
            case .checkoutPlace: self = .checkoutPlace
            case .orders: self = .orders
            case .order: self = .order
            case .favorites: self = .favorites
            case .favoriteToggle: self = .favoriteToggle
            case .account: self = .account
            case .register: self = .register
            case .registerSubmit: self = .registerSubmit
            case .signIn: self = .signIn
            case .signInSubmit: self = .signInSubmit
            case .signOut: self = .signOut
            case .signOutEverywhere: self = .signOutEverywhere
            case .verifyEmail: self = .verifyEmail
            case .verifyResend: self = .verifyResend
            case .forgotPassword: self = .forgotPassword
            case .forgotPasswordSubmit: self = .forgotPasswordSubmit
            case .resetPassword: self = .resetPassword
            case .resetPasswordSubmit: self = .resetPasswordSubmit
            case .changePassword: self = .changePassword
            case .health: self = .health
            case .asset: self = .asset
            case .media: self = .media
            }
        }
    }

    /// `Tests/ShopWebTests`, found from this file.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Every snapshot file: its test file's name, test name, optional snapshot name and text.
    static func snapshotFiles() throws -> [(suite: String, test: String, name: String?, text: String)] {
        let root = testsFolder.appendingPathComponent("__Snapshots__")
        var files: [(suite: String, test: String, name: String?, text: String)] = []
        for suite in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where !suite.hasPrefix(".") {
            let folder = root.appendingPathComponent(suite)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".txt") {
                let parts = file.dropLast(".txt".count).split(separator: ".", maxSplits: 1).map(String.init)
                let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
                files.append((suite, parts[0], parts.count > 1 ? parts[1] : nil, text))
            }
        }
        return files
    }

    /// The route a snapshot's request line names, or nil for requests no route takes (404, 405).
    static func route(ofRequestLine line: Substring) throws -> SiteRoute? {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        let request = try Request(method: HTTPMethod(rawValue: parts[0]), target: parts[1])
        return SiteRoute.parse(method: parts[0], path: request.path, query: { request.queryValue($0) })
    }

    @Test func everyRouteHasASnapshot() throws {
        var covered: Set<RouteCase> = []
        for file in try Self.snapshotFiles() {
            let requestLine = try #require(file.text.split(separator: "\n").first)
            if let route = try Self.route(ofRequestLine: requestLine) { covered.insert(RouteCase(route)) }
        }
        let missing = RouteCase.allCases.filter { !covered.contains($0) }.map(\.rawValue)
        #expect(missing.isEmpty, "routes without a snapshot: \(missing.joined(separator: ", "))")
    }

    /// A snapshot whose test was renamed or deleted would still count above: none may be left.
    @Test func everySnapshotBelongsToATest() throws {
        let files = try Self.snapshotFiles()
        #expect(files.count > RouteCase.allCases.count, "the snapshots are where they should be")
        for file in files {
            let source = Self.testsFolder.appendingPathComponent(file.suite + ".swift")
            let code = (try? String(contentsOf: source, encoding: .utf8)) ?? ""
            let label = "__Snapshots__/\(file.suite)/\(file.test)\(file.name.map { ".\($0)" } ?? "").txt"
            let hasTest = code.contains("func \(file.test)(")
            #expect(hasTest, "\(label): no test \(file.test) in \(file.suite).swift")
            if let name = file.name {
                let namesIt = code.contains("\"\(name)\"")
                #expect(namesIt, "\(label): \(file.suite).swift never names a snapshot \"\(name)\"")
            }
        }
    }

    /// The check above reads request lines correctly (so that it can fail).
    @Test func requestLinesAreReadWithTheAppsRouter() throws {
        #expect(try Self.route(ofRequestLine: "GET /categories/lamps?sort=price-asc").map(RouteCase.init) == .category)
        #expect(try Self.route(ofRequestLine: "POST /cart/lines/7/remove").map(RouteCase.init) == .cartRemoveLine)
        #expect(try Self.route(ofRequestLine: "GET /?view=recommendations").map(RouteCase.init) == .homeRecommendations)
        #expect(try Self.route(ofRequestLine: "POST /cart") == nil)
    }
}
