import HTML

/// Renders pages: every function returns the bytes of a whole HTML document.
enum Views {
    /// The document frame: head, top bar, flash, content, bottom tab bar.
    static func page(_ layout: LayoutModel, mainClass: String = "", @NodeBuilder content: () -> Node) -> [UInt8] {
        let l10n = layout.localizer
        let shop = l10n(.shopName)
        let title = layout.title.isEmpty || layout.title == shop ? shop : "\(layout.title) · \(shop)"
        let document: Node = document(lang: "en") {
            head {
                meta(.charset("utf-8"))
                meta(.name("viewport"), .content("width=device-width, initial-scale=1, viewport-fit=cover"))
                meta(.name("color-scheme"), .content("light dark"))
                meta(.name("theme-color"), .content("#fbf8f4"), .media("(prefers-color-scheme: light)"))
                meta(.name("theme-color"), .content("#16130f"), .media("(prefers-color-scheme: dark)"))
                HTML.title { title }
                link(.rel("stylesheet"), .href(layout.stylesheetHref))
                link(.rel("icon"), .href("/static/images/icon.svg"), .type("image/svg+xml"))
                link(.rel("manifest"), .href(SiteRoute.appShell(.manifest).path))
                link(.rel("apple-touch-icon"), .href("/static/images/apple-touch-icon.png"))
                script(src: layout.scriptHref, .boolean("defer"))
            }
            HTML.body(.class(layout.listLayout ? "layout-list" : "layout-grid")) {
                a(.class("skip-link"), .href("#main")) { l10n(.skipToContent) }
                div(.class("toast"), .role("status"), .aria("live", "polite"), .hidden(true), .data("toast", "")) {}
                header(.class("top-bar")) {
                    a(.class("brand"), .href(SiteRoute.catalog(.home).path)) {
                        span(.class("brand-mark"), .aria("hidden", "true")) { "S" }
                        shop
                    }
                    if let name = layout.accountName {
                        a(.class(layout.activeTab == .account ? "account-link account-link-active" : "account-link"),
                          .href(SiteRoute.account(.show).path), .aria("label", l10n(.accountLink))) {
                            Icon.user.node
                            span(.class("account-name")) { name }
                        }
                    } else {
                        a(.class("account-link"), .href(SiteRoute.account(.signIn(next: nil)).path)) {
                            Icon.user.node
                            span(.class("account-name")) { l10n(.signInLink) }
                        }
                    }
                }
                if let email = layout.unverifiedEmail {
                    div(.class("banner"), .role("status")) {
                        span { l10n(.verifyBanner, ["email": email]) }
                        form(.method("post"), .action(SiteRoute.account(.verifyResend).path)) {
                            Personalization.csrfField
                            button(.type("submit"), .class("link-button")) { l10n(.verifyResend) }
                        }
                    }
                }
                if let flash = layout.flash {
                    div(.class("flash flash-\(flash.kind.rawValue)"), .role(flash.kind == .error ? "alert" : "status"), .data("flash", "")) {
                        if flash.kind == .success { Icon.check.node }
                        span { flash.text }
                        if let text = flash.linkText, let href = flash.linkHref {
                            a(.href(href)) { text }
                        }
                    }
                }
                AppShell.offlineBanner(l10n)
                main(.id("main"), .class(mainClass.isEmpty ? "content" : "content \(mainClass)")) { content() }
                tabBar(layout)
            }
        }
        return render(document, reservingCapacity: 24_576)
    }

    /// A count on a tab icon; `kind` names it for scripts and tests (`data-cart-count`,
    /// `data-favorites-count`).
    static func badge(_ count: Int, kind: String = "cart") -> Node {
        let text = count > 99 ? "99+" : String(count)
        return kind == "favorites"
            ? span(.class("badge"), .data("favorites-count", String(count)), .hidden(count == 0)) { text }
            : span(.class("badge"), .data("cart-count", String(count)), .hidden(count == 0)) { text }
    }

    static func tabBar(_ layout: LayoutModel) -> Node {
        let l10n = layout.localizer
        func tab(_ tab: Tab, _ href: String, _ icon: Icon, _ label: String, count: Int? = nil,
                 badgeKind: String = "cart") -> Node {
            let active = layout.activeTab == tab
            return a(.class(active ? "tab tab-active" : "tab"), .href(href),
                      active ? .aria("current", "page") : .boolean("data-inactive", false)) {
                span(.class("tab-icon")) {
                    icon.node
                    if let count { badge(count, kind: badgeKind) }
                }
                span(.class("tab-label")) { label }
            }
        }
        return nav(.class("tab-bar"), .aria("label", "Main")) {
            tab(.home, SiteRoute.catalog(.home).path, .home, l10n(.tabHome))
            tab(.categories, SiteRoute.catalog(.categories).path, .categories, l10n(.tabCategories))
            tab(.campaigns, SiteRoute.campaigns(.list).path, .tag, l10n(.tabCampaigns))
            tab(.cart, SiteRoute.cart(.show).path, .cart, l10n(.tabCart), count: layout.cartCount)
            tab(.favorites, SiteRoute.favorites(.list).path, .heart, l10n(.tabFavorites), count: layout.favoritesCount,
                badgeKind: "favorites")
        }
    }

    /// Error pages (404, 4xx, 500): friendly text, no details.
    enum ErrorKind { case notFound, forbidden, methodNotAllowed, badRequest, busy, server }

    static func error(_ kind: ErrorKind, layout: LayoutModel) -> [UInt8] {
        let l10n = layout.localizer
        let (code, title, text): (String, String, String) = switch kind {
        case .notFound: ("404", l10n(.errorNotFoundTitle), l10n(.errorNotFoundText))
        case .forbidden: ("403", l10n(.errorForbiddenTitle), l10n(.errorForbiddenText))
        case .methodNotAllowed: ("405", l10n(.errorBadRequestTitle), l10n(.errorBadRequestText))
        case .busy: ("503", l10n(.errorBusyTitle), l10n(.errorBusyText))
        case .badRequest: ("400", l10n(.errorBadRequestTitle), l10n(.errorBadRequestText))
        case .server: ("500", l10n(.errorServerTitle), l10n(.errorServerText))
        }
        var layout = layout
        layout.title = title
        return page(layout, mainClass: "error-page") {
            div(.class("empty-state")) {
                p(.class("error-code"), .aria("hidden", "true")) { code }
                h1 { title }
                p { text }
                a(.class("button button-primary"), .href(SiteRoute.catalog(.home).path)) { l10n(.errorBackHome) }
            }
        }
    }
}
