import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// Files and health.
    public enum AssetsRoute: Hashable, Sendable {
        /// `GET /healthz` — liveness and database check.
        case health
        /// `GET /static/{path}` — stylesheet, script and images shipped with the app.
        case asset(path: String)
        /// `GET /media/{file}` — images imported from merchants' local files.
        case media(file: String)
    }

    /// The declarations of ``AssetsRoute``, tried in this order.
    static let assetsRoutes: [Declaration] = [
        fixed("GET", "/healthz", [], .assets(.health)),
        Declaration("GET", "/static/{path...}", [],
                    make: { parameters in
                        let path = parameters["path"]
                        guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
                        return .assets(.asset(path: path))
                    },
                    match: { if case let .assets(.asset(path)) = $0 { Parameters(["path": path]) } else { nil } }),
        Declaration("GET", "/media/{file}", [],
                    make: { $0["file"].hasPrefix(".") ? nil : .assets(.media(file: $0["file"])) },
                    match: { if case let .assets(.media(file)) = $0 { Parameters(["file": file]) } else { nil } }),
    ]
}
