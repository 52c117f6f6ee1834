import HTML
import ShopCore

/// Renders pages: every function returns the bytes of a whole HTML document.
enum Views {
    /// The document frame: head, top bar, flash, content, bottom tab bar.
    static func page(_ layout: LayoutModel, mainClass: String = "", @NodeBuilder content: () -> Node) -> [UInt8] {
        let l10n = layout.localizer
        let shop = l10n(.shopName)
        // `data-theme` is rendered by the server from the cookie: the chosen colours apply before
        // the first paint, with or without JavaScript ("system" leaves it to the media query).
        let document: Node = document(lang: l10n.language.rawValue, .data("theme", layout.theme.rawValue)) {
            head {
                meta(.charset("utf-8"))
                meta(.name("viewport"), .content("width=device-width, initial-scale=1, viewport-fit=cover"))
                meta(.name("color-scheme"), .content(layout.theme == .system ? "light dark" : layout.theme.rawValue))
                for (color, media) in layout.theme.themeColors {
                    if let media {
                        meta(.name("theme-color"), .content(color), .media(media))
                    } else {
                        meta(.name("theme-color"), .content(color))
                    }
                }
                layout.badgesAsMarkers ? PathBlock.title.markerNode : titleElement(layout)
                link(.rel("stylesheet"), .href(layout.stylesheetHref))
                link(.rel("icon"), .href("/static/images/icon.svg"), .type("image/svg+xml"))
                layout.badgesAsMarkers ? PathBlock.alternateLinks.markerNode : alternateLinks(layout)
                link(.rel("manifest"), .href(SiteRoute.appShell(.manifest).path))
                link(.rel("apple-touch-icon"), .href("/static/images/apple-touch-icon.png"))
                script(src: layout.scriptHref, .boolean("defer"))
            }
            HTML.body(.class(layout.listLayout ? "layout-list" : "layout-grid")) {
                a(.class("skip-link"), .href("#main")) { l10n(.skipToContent) }
                // The live region for toasts (quick add, hearts, offline): always present and empty
                // until `app.js` puts a message in it, so screen readers announce each one.
                div(.class("toast-region"), .role("status"), .aria("live", "polite"), .aria("atomic", "true"),
                    .data("toast", "")) {}
                header(.class("top-bar")) {
                    a(.class("brand"), .href(SiteRoute.catalog(.home).path)) {
                        span(.class("brand-mark"), .aria("hidden", "true")) { "S" }
                        shop
                    }
                    if layout.alternates != nil {
                        layout.badgesAsMarkers ? PathBlock.languagePicker.markerNode : languagePicker(layout)
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
                        span(.class("banner-text")) { l10n(.verifyBanner, ["email": email]) }
                        form(.method("post"), .action(SiteRoute.account(.verifyResend).path)) {
                            Personalization.csrfField
                            button(.type("submit"), .class("link-button")) { l10n(.verifyResend) }
                        }
                        form(.class("banner-close"), .method("post"), .action(SiteRoute.account(.verifyBannerDismiss).path)) {
                            Personalization.csrfField
                            layout.badgesAsMarkers ? PathBlock.bannerReturn.markerNode : bannerReturn(layout)
                            button(.type("submit"), .class("icon-button"), .aria("label", l10n(.verifyBannerDismiss)),
                                   .title(l10n(.verifyBannerDismiss))) { Icon.close.node }
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
                footer(.class("site-footer")) { layout.badgesAsMarkers ? PathBlock.themePicker.markerNode : themePicker(layout) }
                tabBar(layout)
            }
        }
        return render(document, reservingCapacity: 24_576)
    }

    /// The parts of the layout that show the page's own title or address: a template
    /// (`LayoutModel.badgesAsMarkers`) holds a marker for each, so one kept layout serves every
    /// page of a look (`LayoutCache`), and each request renders them from its own layout.
    enum PathBlock: CaseIterable, Sendable {
        case title, alternateLinks, languagePicker, bannerReturn, themePicker

        var marker: String { "<!--layout:\(self)-->" }
        var markerNode: Node { Node.raw(unsafe: marker) }

        /// This block of `layout`, rendered.
        func render(_ layout: LayoutModel) -> Node {
            switch self {
            case .title: Views.titleElement(layout)
            case .alternateLinks: Views.alternateLinks(layout)
            case .languagePicker: Views.languagePicker(layout)
            case .bannerReturn: Views.bannerReturn(layout)
            case .themePicker: Views.themePicker(layout)
            }
        }
    }

    /// `<title>`: the page's title and the shop's name (a title that names the shop already, the
    /// home page's, is not suffixed with it again).
    static func titleElement(_ layout: LayoutModel) -> Node {
        let shop = layout.localizer(.shopName)
        // Searched for as bytes: `String.contains` took 0.5 % of an uncached category page.
        let namesShop = ByteSearch.firstIndex(of: Array(shop.utf8), in: Array(layout.title.utf8)) != nil
        let title = layout.title.isEmpty ? shop : namesShop ? layout.title : "\(layout.title) · \(shop)"
        return HTML.title { title }
    }

    /// The page in each language, for search engines (with the shop's public address only).
    static func alternateLinks(_ layout: LayoutModel) -> Node {
        guard let alternates = layout.alternates, let base = alternates.publicURL else { return .empty }
        return fragment {
            for language in Language.allCases {
                link(.rel("alternate"), .attribute("hreflang", language.rawValue), .href(base + alternates.href(language)))
            }
            link(.rel("alternate"), .attribute("hreflang", "x-default"), .href(base + alternates.path))
        }
    }

    /// The language picker of a layout with alternates.
    static func languagePicker(_ layout: LayoutModel) -> Node {
        guard let alternates = layout.alternates else { return .empty }
        return languagePicker(alternates, current: layout.localizer.language, signedIn: layout.accountName != nil,
                              layout.localizer)
    }

    /// Where the e-mail banner's close button comes back to.
    static func bannerReturn(_ layout: LayoutModel) -> Node {
        input(.type("hidden"), .name("return_to"), .value(layout.returnPath))
    }

    /// The tab badges: the cart's and the favorites'.
    enum BadgeKind: CaseIterable, Sendable {
        case cart, favorites

        /// Stands for this badge in a layout kept by `LayoutCache`.
        var marker: String { self == .cart ? "<!--layout:cart-badge-->" : "<!--layout:favorites-badge-->" }
        var markerBytes: [UInt8] { self == .cart ? Self.cartMarker : Self.favoritesMarker }
        private static let cartMarker = Array(BadgeKind.cart.marker.utf8)
        private static let favoritesMarker = Array(BadgeKind.favorites.marker.utf8)
    }

    /// A count on a tab icon; `kind` names it for scripts and tests (`data-cart-count`,
    /// `data-favorites-count`). The cart's count is a polite live region: when `app.js` changes it
    /// in place (quick add, another tab), screen readers say the new count.
    static func badge(_ count: Int, kind: BadgeKind = .cart) -> Node {
        let text = count > 99 ? "99+" : String(count)
        return kind == .favorites
            ? span(.class("badge"), .data("favorites-count", String(count)), .hidden(count == 0)) { text }
            : span(.class("badge"), .aria("live", "polite"), .data("cart-count", String(count)),
                   .hidden(count == 0)) { text }
    }

    /// ``badge(_:kind:)`` rendered; counts 0–99 (nearly all) rendered once.
    static func badgeBytes(_ count: Int, kind: BadgeKind) -> [UInt8] {
        let kept = kind == .cart ? cartBadges : favoritesBadges
        return kept.indices.contains(count) ? kept[count] : render(badge(count, kind: kind), reservingCapacity: 128)
    }
    private static let cartBadges = (0...99).map { render(badge($0, kind: .cart), reservingCapacity: 128) }
    private static let favoritesBadges = (0...99).map { render(badge($0, kind: .favorites), reservingCapacity: 128) }

    /// System / Light / Dark: links that set the theme cookie and come back (no JavaScript needed);
    /// the current choice is marked with `aria-current`.
    static func themePicker(_ layout: LayoutModel) -> Node {
        let l10n = layout.localizer
        return nav(.class("theme-picker"), .aria("label", l10n(.themeLabel))) {
            span(.class("theme-picker-label")) { l10n(.themeLabel) }
            ul(.class("segmented")) {
                for theme in Theme.allCases {
                    li {
                        a(.href(SiteRoute.catalog(.theme(theme.rawValue, returnTo: layout.returnPath)).path),
                          .rel("nofollow"), .data("theme-choice", theme.rawValue),
                          theme == layout.theme ? .aria("current", "true") : .boolean("data-inactive", false)) {
                            theme.label(l10n)
                        }
                    }
                }
            }
        }
    }

    static func tabBar(_ layout: LayoutModel) -> Node {
        let l10n = layout.localizer
        func tab(_ tab: Tab, _ href: String, _ icon: Icon, _ label: String, count: Int? = nil,
                 badgeKind: BadgeKind = .cart) -> Node {
            let active = layout.activeTab == tab
            return a(.class(active ? "tab tab-active" : "tab"), .href(href),
                      active ? .aria("current", "page") : .boolean("data-inactive", false)) {
                span(.class("tab-icon")) {
                    icon.node
                    if let count {
                        layout.badgesAsMarkers ? Node.raw(unsafe: badgeKind.marker) : badge(count, kind: badgeKind)
                    }
                }
                span(.class("tab-label")) { label }
            }
        }
        return nav(.class("tab-bar"), .aria("label", l10n(.mainNavigationLabel))) {
            tab(.home, SiteRoute.catalog(.home).path, .home, l10n(.tabHome))
            tab(.categories, SiteRoute.catalog(.categories).path, .categories, l10n(.tabCategories))
            tab(.campaigns, SiteRoute.campaigns(.list).path, .tag, l10n(.tabCampaigns))
            tab(.cart, SiteRoute.cart(.show).path, .cart, l10n(.tabCart), count: layout.cartCount)
            tab(.favorites, SiteRoute.favorites(.list).path, .heart, l10n(.tabFavorites), count: layout.favoritesCount,
                badgeKind: .favorites)
        }
    }

    /// This page in every language, each named in its own language; works without JavaScript.
    /// A visitor gets links (`?lang=` remembers the choice in the cookie); a signed-in shopper a
    /// form of buttons posting to `POST /account/language` with the CSRF token, which also saves
    /// it on the account — a GET never writes an account setting.
    static func languagePicker(_ alternates: LanguageAlternates, current: Language, signedIn: Bool,
                               _ l10n: Localizer) -> Node {
        nav(.class("language-picker"), .aria("label", l10n(.languageLabel))) {
            if signedIn {
                form(.method("post"), .action(SiteRoute.account(.language).path)) {
                    Personalization.csrfField
                    input(.type("hidden"), .name("return_to"), .value(alternates.path))
                    for language in Language.allCases {
                        button(.type("submit"), .name(ShopApp.languageParameter), .value(language.rawValue),
                               .lang(language.rawValue),
                               language == current ? .aria("current", "true") : .boolean("data-inactive", false)) {
                            language.nativeName
                        }
                    }
                }
            } else {
                for language in Language.allCases {
                    a(.href(alternates.href(language)), .attribute("hreflang", language.rawValue), .lang(language.rawValue),
                      language == current ? .aria("current", "true") : .boolean("data-inactive", false)) {
                        language.nativeName
                    }
                }
            }
        }
    }

    /// Error pages (404, 4xx, 500): friendly text, no details.
    enum ErrorKind { case notFound, forbidden, crossSite, methodNotAllowed, badRequest, busy, server }

    static func error(_ kind: ErrorKind, layout: LayoutModel) -> [UInt8] {
        let l10n = layout.localizer
        let (code, title, text): (String, String, String) = switch kind {
        case .notFound: ("404", l10n(.errorNotFoundTitle), l10n(.errorNotFoundText))
        case .forbidden: ("403", l10n(.errorForbiddenTitle), l10n(.errorForbiddenText))
        case .crossSite: ("403", l10n(.errorCrossSiteTitle), l10n(.errorCrossSiteText))
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
