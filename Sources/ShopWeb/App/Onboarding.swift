import Foundation
import HTML
import HTTPServer
import ShopAPI


/// The first-visit introduction (issue #11, point 4): three panels — browsing and search,
/// favorites, campaigns and voucher codes — shown once per visitor, skippable, and working
/// without JavaScript.
///
/// The server decides. A catalog page (a route declared `cacheable`) answered 200 to a browser
/// that has no `shoppable_welcomed` cookie gets the introduction inserted before `</body>` —
/// after the page cache, so cached pages and documents never contain it and a visitor who has
/// dismissed it gets exactly the bytes they got before. "Skip" and "Done" are plain forms
/// (`POST /welcome`) that set the cookie and come back to the page; the panels step with `#welcome-2`
/// links (CSS `:target`), which `app.js` turns into in-place steps. Crawlers and scripts (no
/// `Mozilla/` User-Agent, or one naming a bot) and the JSON API never see it.
enum Onboarding {
    /// Set by "Skip" (`skipped`) or "Done" (`done`). Not `HttpOnly`: `app.js` reads it to drop an
    /// introduction kept in a page the service worker saved before it was dismissed.
    static let cookie = "shoppable_welcomed"
    /// How long the choice is remembered: a year.
    static let cookieMaxAge = 60 * 60 * 24 * 365

    /// `true` when the page answering the request of `context` should carry the introduction —
    /// a HEAD as its GET (`readsOnly`), so both say one length.
    static func shouldShow(_ context: RequestContext) -> Bool {
        let request = context.request
        guard context.readsOnly, context.routeTraits.contains(.cacheable),
              request.cookies[cookie] == nil else { return false }
        return !isAutomated(userAgent: request.headers["User-Agent"])
    }

    /// Words in the User-Agent of crawlers, link previewers and audit tools.
    static let automatedMarkers = ["bot", "crawl", "spider", "slurp", "mediapartners", "facebookexternalhit",
                                   "preview", "lighthouse", "archiver", "http://", "https://"]

    /// A heuristic: browsers send a User-Agent starting with `Mozilla/` without a bot's words (and
    /// crawlers' usually carry a `+https://…` page about them); HTTP libraries and tools send their
    /// own name or nothing.
    static func isAutomated(userAgent: String?) -> Bool {
        guard let agent = userAgent?.lowercased(), agent.hasPrefix("mozilla/") else { return true }
        return automatedMarkers.contains { agent.contains($0) }
    }

    /// Inserts the introduction into an HTML page when ``shouldShow(_:)`` says so. Runs
    /// before `Personalization`, which fills the forms' CSRF marker.
    static func offer(_ response: inout Response, _ context: inout RequestContext) {
        guard response.status == .ok, response.headers["Content-Type"]?.hasPrefix("text/html") == true,
              shouldShow(context),
              let end = CompressedPage.bodyEnd(in: response.body) else { return }
        let overlay = render(view(returnTo: context.canonicalPath, l10n: context.l10n), reservingCapacity: 4_096)
        response.body.insert(contentsOf: overlay, at: end)
        context.compressedBody?.insert(overlay, at: end)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
    }

    /// The three panels, as a modal dialog over the page.
    static func view(returnTo: String, l10n: Localizer) -> Node {
        let panels: [(Icon, L10nKey, L10nKey)] = [
            (.categories, .welcomeBrowseTitle, .welcomeBrowseText),
            (.heart, .welcomeFavoritesTitle, .welcomeFavoritesText),
            (.tag, .welcomeCampaignsTitle, .welcomeCampaignsText),
        ]
        func dismiss(_ choice: String, _ label: String, primary: Bool) -> Node {
            form(.class("welcome-form"), .method("post"), .action(SiteRoute.appShell(.dismissWelcome).path)) {
                Personalization.csrfField
                input(.type("hidden"), .name("return_to"), .value(returnTo))
                input(.type("hidden"), .name("choice"), .value(choice))
                button(.type("submit"), .class(primary ? "button button-primary" : "button"), .data("welcome-dismiss", choice)) {
                    label
                }
            }
        }
        return div(.class("welcome"), .id("welcome"), .role("dialog"), .aria("modal", "true"),
                   .aria("labelledby", "welcome-title-1"), .data("welcome", "")) {
            div(.class("welcome-card")) {
                for (index, panel) in panels.enumerated() {
                    let number = index + 1
                    section(.class("welcome-panel"), .id("welcome-\(number)"), .aria("labelledby", "welcome-title-\(number)"),
                            .data("welcome-panel", String(number))) {
                        p(.class("welcome-step")) {
                            l10n(.welcomeStep, ["step": String(number), "count": String(panels.count)])
                        }
                        span(.class("welcome-icon"), .aria("hidden", "true")) { panel.0.node }
                        h2(.id("welcome-title-\(number)")) { l10n(panel.1) }
                        p(.class("welcome-text")) { l10n(panel.2) }
                        div(.class("welcome-actions")) {
                            if number < panels.count {
                                dismiss("skip", l10n(.welcomeSkip), primary: false)
                                a(.class("button button-primary"), .href("#welcome-\(number + 1)"),
                                  .data("welcome-next", String(number + 1))) { l10n(.welcomeNext) }
                            } else {
                                dismiss("done", l10n(.welcomeDone), primary: true)
                            }
                        }
                    }
                }
            }
        }
    }
}
