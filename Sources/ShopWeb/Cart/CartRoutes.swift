import Foundation
public import ShopAPI
public import ShopCore

extension SiteRoute {
    /// The cart and its actions.
    public enum CartRoute: Hashable, Sendable {
        /// `GET /cart`.
        case show
        /// `POST /cart/add` — form: `product`, `variant`, `quantity`, optional `return_to`.
        case add
        /// `POST /cart/lines/{variantID}` — form: `quantity` (0 removes).
        case updateLine(Variant.ID)
        /// `POST /cart/lines/{variantID}/remove`.
        case removeLine(Variant.ID)
        /// `POST /cart/lines/{variantID}/select` — form: `selected` = 1 or 0.
        case selectLine(Variant.ID)
        /// `POST /cart/select-all` — form: `selected` = 1 or 0.
        case selectAll
        /// `POST /cart/voucher` (`code`) and `POST /cart/voucher/remove`.
        case voucher, voucherRemove
    }

    /// The declarations of ``CartRoute``, tried in this order.
    static let cartRoutes: [Declaration] = [
        fixed("GET", "/cart", [], .cart(.show)),
        fixed("POST", "/cart/add", [], .cart(.add)),
        fixed("POST", "/cart/voucher", [], .cart(.voucher)),
        fixed("POST", "/cart/voucher/remove", [], .cart(.voucherRemove)),
        fixed("POST", "/cart/select-all", [], .cart(.selectAll)),
        numbered("POST", "/cart/lines/{id}", make: { .cart(.updateLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.updateLine(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/cart/lines/{id}/remove", make: { .cart(.removeLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.removeLine(id)) = $0 { id.rawValue } else { nil } }),
        numbered("POST", "/cart/lines/{id}/select", make: { .cart(.selectLine(Variant.ID(rawValue: $0))) },
                 id: { if case let .cart(.selectLine(id)) = $0 { id.rawValue } else { nil } }),
    ]
}
