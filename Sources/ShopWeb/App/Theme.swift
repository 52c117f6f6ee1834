/// The visitor's colour theme (issue #11, point 3): follow the device (`prefers-color-scheme`), or
/// always light, or always dark. Remembered in ``ShopApp/themeCookie`` and rendered as
/// `<html data-theme="…">` by the server, so the chosen colours apply before the first paint and
/// without JavaScript; `app.css` reads the attribute (see `docs/ARCHITECTURE.md`, "Appearance").
enum Theme: String, CaseIterable, Sendable {
    case system, light, dark

    /// The theme a cookie value names; anything else (or no cookie) follows the system.
    init(cookie: String?) {
        self = cookie.flatMap(Theme.init(rawValue:)) ?? .system
    }

    /// The browser UI colour for this theme: the page background of each colour scheme
    /// (`--bg` in `app.css`); `nil` media means "whatever the device prefers".
    var themeColors: [(color: String, media: String?)] {
        switch self {
        case .system: [("#fbf8f4", "(prefers-color-scheme: light)"), ("#15120f", "(prefers-color-scheme: dark)")]
        case .light: [("#fbf8f4", nil)]
        case .dark: [("#15120f", nil)]
        }
    }

    func label(_ l10n: Localizer) -> String {
        switch self {
        case .system: l10n(.themeSystem)
        case .light: l10n(.themeLight)
        case .dark: l10n(.themeDark)
        }
    }
}
