import Foundation
import HTTPServer
import ShopAPI
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
    /// The case of a route, without its values (`.catalog(.product(…))` is `catalogProduct`).
    enum RouteCase: CaseIterable {
        case catalogHome, catalogHomeRecommendations, catalogCategories, catalogCategorySearch, catalogCategory, catalogAllProducts,
             catalogSearch, catalogProduct, catalogLayout, catalogTheme, catalogBadge, cartShow, cartAdd, cartUpdateLine,
             cartRemoveLine, cartSelectLine, cartSelectAll, cartVoucher, cartVoucherRemove, favoritesList,
             favoritesToggle, accountShow, accountRegister, accountRegisterSubmit, accountSignIn, accountSignInSubmit,
             accountSignOut, accountSignOutEverywhere, accountVerifyEmail, accountVerifyResend, accountVerifyBannerDismiss, accountLanguage, accountForgotPassword,
             accountForgotPasswordSubmit, accountResetPassword, accountResetPasswordSubmit, accountChangePassword,
             accountAddresses, accountAddressNew, accountAddressCreate, accountAddressEdit, accountAddressUpdate,
             accountAddressDeleteConfirm, accountAddressDelete, checkoutStart, checkoutAddress, checkoutAddressSubmit,
             checkoutShipping, checkoutShippingSubmit, checkoutReview, checkoutPlace, ordersList, ordersOrder,
             campaignsList, campaignsCampaign, assetsHealth, assetsAsset, assetsMedia, appShellServiceWorker,
             appShellManifest, appShellOffline, appShellDismissWelcome

        init(_ route: SiteRoute) {
            switch route {
            case .catalog(.home): self = .catalogHome
            case .catalog(.homeRecommendations): self = .catalogHomeRecommendations
            case .catalog(.categories): self = .catalogCategories
            case .catalog(.categorySearch): self = .catalogCategorySearch
            case .catalog(.category): self = .catalogCategory
            case .catalog(.allProducts): self = .catalogAllProducts
            case .catalog(.search): self = .catalogSearch
            case .catalog(.product): self = .catalogProduct
            case .catalog(.layout): self = .catalogLayout
            case .catalog(.theme): self = .catalogTheme
            case .catalog(.badge): self = .catalogBadge
            case .cart(.show): self = .cartShow
            case .cart(.add): self = .cartAdd
            case .cart(.updateLine): self = .cartUpdateLine
            case .cart(.removeLine): self = .cartRemoveLine
            case .cart(.selectLine): self = .cartSelectLine
            case .cart(.selectAll): self = .cartSelectAll
            case .cart(.voucher): self = .cartVoucher
            case .cart(.voucherRemove): self = .cartVoucherRemove
            case .favorites(.list): self = .favoritesList
            case .favorites(.toggle): self = .favoritesToggle
            case .account(.show): self = .accountShow
            case .account(.register): self = .accountRegister
            case .account(.registerSubmit): self = .accountRegisterSubmit
            case .account(.signIn): self = .accountSignIn
            case .account(.signInSubmit): self = .accountSignInSubmit
            case .account(.signOut): self = .accountSignOut
            case .account(.signOutEverywhere): self = .accountSignOutEverywhere
            case .account(.verifyEmail): self = .accountVerifyEmail
            case .account(.verifyResend): self = .accountVerifyResend
            case .account(.verifyBannerDismiss): self = .accountVerifyBannerDismiss
            case .account(.language): self = .accountLanguage
            case .account(.forgotPassword): self = .accountForgotPassword
            case .account(.forgotPasswordSubmit): self = .accountForgotPasswordSubmit
            case .account(.resetPassword): self = .accountResetPassword
            case .account(.resetPasswordSubmit): self = .accountResetPasswordSubmit
            case .account(.changePassword): self = .accountChangePassword
            case .account(.addresses): self = .accountAddresses
            case .account(.addressNew): self = .accountAddressNew
            case .account(.addressCreate): self = .accountAddressCreate
            case .account(.addressEdit): self = .accountAddressEdit
            case .account(.addressUpdate): self = .accountAddressUpdate
            case .account(.addressDeleteConfirm): self = .accountAddressDeleteConfirm
            case .account(.addressDelete): self = .accountAddressDelete
            case .checkout(.start): self = .checkoutStart
            case .checkout(.address): self = .checkoutAddress
            case .checkout(.addressSubmit): self = .checkoutAddressSubmit
            case .checkout(.shipping): self = .checkoutShipping
            case .checkout(.shippingSubmit): self = .checkoutShippingSubmit
            case .checkout(.review): self = .checkoutReview
            case .checkout(.place): self = .checkoutPlace
            case .orders(.list): self = .ordersList
            case .orders(.order): self = .ordersOrder
            case .campaigns(.list): self = .campaignsList
            case .campaigns(.campaign): self = .campaignsCampaign
            case .assets(.health): self = .assetsHealth
            case .assets(.asset): self = .assetsAsset
            case .assets(.media): self = .assetsMedia
            case .appShell(.serviceWorker): self = .appShellServiceWorker
            case .appShell(.manifest): self = .appShellManifest
            case .appShell(.offline): self = .appShellOffline
            case .appShell(.dismissWelcome): self = .appShellDismissWelcome
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
        return SiteRoute.parse(method: parts[0], path: request.path,
                               query: request.query.map { RouteRequest.QueryItem($0.name, $0.value) })
    }

    @Test func everyRouteHasASnapshot() throws {
        var covered: Set<RouteCase> = []
        for file in try Self.snapshotFiles() {
            let requestLine = try #require(file.text.split(separator: "\n").first)
            if let route = try Self.route(ofRequestLine: requestLine) { covered.insert(RouteCase(route)) }
        }
        let missing = RouteCase.allCases.filter { !covered.contains($0) }.map { "\($0)" }
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
        #expect(try Self.route(ofRequestLine: "GET /categories/lamps?sort=price-asc").map(RouteCase.init) == .catalogCategory)
        #expect(try Self.route(ofRequestLine: "POST /cart/lines/7/remove").map(RouteCase.init) == .cartRemoveLine)
        #expect(try Self.route(ofRequestLine: "GET /?view=recommendations").map(RouteCase.init) == .catalogHomeRecommendations)
        #expect(try Self.route(ofRequestLine: "POST /cart") == nil)
    }
}
