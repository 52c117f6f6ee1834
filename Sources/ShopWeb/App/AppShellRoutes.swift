import Foundation
public import ShopAPI

extension SiteRoute {
    /// What makes the storefront an installable app (issue #11, points 4 and 5): the service
    /// worker, the web app manifest, the offline fallback page and the onboarding's dismissal.
    public enum AppShellRoute: Hashable, Sendable {
        /// `GET /sw.js` — the service worker, from the site root so its scope is the whole site.
        case serviceWorker
        /// `GET /manifest.webmanifest` — name, colours, icons, start URL.
        case manifest
        /// `GET /offline` — the page the service worker shows for a page it has not kept.
        case offline
        /// `POST /welcome` — "Skip" or "Done" on the first-visit introduction: remembered in a
        /// cookie, then back to `return_to`.
        case dismissWelcome
    }

    /// The declarations of ``AppShellRoute``.
    static let appShellRoutes: [Declaration] = [
        fixed("GET", "/sw.js", [], .appShell(.serviceWorker)),
        fixed("GET", "/manifest.webmanifest", [], .appShell(.manifest)),
        fixed("GET", "/offline", [], .appShell(.offline)),
        fixed("POST", "/welcome", [], .appShell(.dismissWelcome)),
    ]
}
