import Foundation
import HTML
import HTTPServer
import ShopCore

/// The installable app around the storefront (issue #11, point 5): the service worker script,
/// the web app manifest, the offline page, and the onboarding's dismissal.
extension ShopApp {
    static func appShell(_ route: SiteRoute.AppShellRoute, _ context: inout RequestContext) throws -> Response {
        switch route {
        case .serviceWorker:
            guard let script = AppShell.serviceWorkerScript(assets: context.environment.assets) else {
                return context.errorPage(.notFound)
            }
            var response = StaticFiles.respond(bytes: script, contentType: "text/javascript; charset=utf-8",
                                               etag: Assets.etag(for: script), cacheControl: "no-cache",
                                               request: context.request)
            // The script lives at the root, so its default scope is the whole site; said explicitly
            // for browsers that check it.
            response.headers.replaceOrAdd(name: "Service-Worker-Allowed", value: "/")
            return response
        case .manifest:
            let manifest = AppShell.manifest(assets: context.environment.assets, l10n: context.l10n)
            return StaticFiles.respond(bytes: manifest, contentType: AppShell.manifestContentType,
                                       etag: Assets.etag(for: manifest), cacheControl: "no-cache", request: context.request)
        case .offline:
            let l10n = context.l10n
            let layout = try context.layout(title: l10n(.offlineTitle), tab: nil)
            var response = Response.html(Views.page(layout, mainClass: "offline-page") {
                div(.class("empty-state")) {
                    span(.class("empty-icon"), .aria("hidden", "true")) { AppShell.offlineIcon }
                    h1 { l10n(.offlineTitle) }
                    p { l10n(.offlineText) }
                    // An empty href is the address the page is shown for: the service worker
                    // answers every page it cannot fetch with this one.
                    a(.class("button button-primary"), .href(""), .data("offline-retry", "")) { l10n(.offlineRetry) }
                }
            })
            response.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
            return response
        case .dismissWelcome:
            let choice = context.request.formValue("choice") == "done" ? "done" : "skipped"
            var cookie = context.cookie(Onboarding.cookie, choice, maxAge: Onboarding.cookieMaxAge)
            cookie.httpOnly = false
            context.setCookies.append(cookie)
            if context.request.headers["Accept"]?.contains("application/json") == true {
                return JSONText.response(["welcomed": .string(choice)])
            }
            return .redirect(to: SafeRedirect.localPath(context.request.formValue("return_to"))
                             ?? SiteRoute.catalog(.home).path)
        }
    }
}

/// What the service worker and the manifest are made of.
enum AppShell {
    /// `application/manifest+json` (the Web App Manifest spec's media type).
    static let manifestContentType = "application/manifest+json"

    /// Icons of the manifest: file below `Public`, size, purpose.
    static let icons = [("images/icon-192.png", "192x192", "any"), ("images/icon-512.png", "512x512", "any"),
                        ("images/icon-maskable-512.png", "512x512", "maskable")]

    /// The version of everything the app shell is made of: the hash of every shipped file's hash,
    /// so any change to a stylesheet, script, icon or the worker itself names a new cache (and the
    /// worker, its bytes changed, is installed again and drops the old one).
    static func version(_ assets: Assets) -> String {
        let joined = assets.files.keys.sorted().map { "\($0)=\(assets.files[$0]!.etag)" }.joined(separator: "\n")
        return ContentHash(of: Array(joined.utf8)).hex
    }

    /// `Public/sw.js` with its settings in front: `self.SHOPPABLE = {version, shell, offline}`,
    /// where `shell` lists the versioned URLs to keep at install. Nil when the file is not shipped.
    static func serviceWorkerScript(assets: Assets) -> [UInt8]? {
        guard let file = assets.files["sw.js"] else { return nil }
        let offline = SiteRoute.appShell(.offline).path
        let shell = [offline, assets.stylesheetPath, assets.scriptPath, "/static/images/icon.svg"]
            + icons.map { assets.versionedPath($0.0) }
        let settings = "self.SHOPPABLE = {\"version\":\"\(version(assets))\",\"offline\":\"\(offline)\",\"shell\":["
            + shell.map { "\"\($0)\"" }.joined(separator: ",") + "]};\n"
        return Array(settings.utf8) + file.bytes
    }

    /// The web app manifest: name, start URL, standalone display, colours (the light theme's
    /// background, as the `theme-color` meta), icons with their versioned URLs.
    static func manifest(assets: Assets, l10n: Localizer) -> [UInt8] {
        struct Manifest: Encodable {
            struct Icon: Encodable { var src: String, sizes: String, type: String, purpose: String }
            var id = "/"
            var name: String
            var short_name: String
            var description: String
            var lang: String
            var start_url = "/"
            var scope = "/"
            var display = "standalone"
            var orientation = "portrait"
            var background_color = "#fbf8f4"
            var theme_color = "#fbf8f4"
            var categories = ["shopping"]
            var icons: [Icon]
        }
        let manifest = Manifest(name: l10n(.shopName), short_name: l10n(.shopName), description: l10n(.homeHeroText),
                                lang: l10n.locale.identifier.replacingOccurrences(of: "_", with: "-"),
                                icons: icons.map { Manifest.Icon(src: assets.versionedPath($0.0), sizes: $0.1,
                                                                 type: "image/png", purpose: $0.2) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(manifest)) ?? Data("{}".utf8))
    }

    /// A cloud with a slash: no connection.
    static let offlineIcon = Node.raw(unsafe: "<svg class=\"icon\" viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\">"
        + "<g fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.8\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
        + "<path d=\"M7 18h10.5a3.5 3.5 0 0 0 .6-6.95A5.5 5.5 0 0 0 7.6 9.1 4.5 4.5 0 0 0 7 18z\"/><path d=\"M4 4l16 16\"/></g></svg>")
}

extension AppShell {
    /// The banner `app.js` shows while the browser is offline; its `data-reason` is what disabled
    /// actions say (visible next to them, as their tooltip and in the toast when tried).
    static func offlineBanner(_ l10n: Localizer) -> Node {
        div(.class("offline-banner"), .role("status"), .hidden(true), .data("offline-banner", ""),
            .data("reason", l10n(.offlineActionReason)), .data("back-online", l10n(.backOnline))) {
            offlineIcon
            span { l10n(.offlineBanner) }
        }
    }
}
