import HTTPServer
import ShopCore

/// The storefront's form fields for the values a shopper picks for a variant's open options
/// (WooCommerce "any"): `choice.<variant id>.<option name>` = value, one `<select>` each on the
/// product page, so a page with several variants posts each one's picks apart; the cart's line
/// forms carry the line's `ChosenValues.text` back as `chosen`.
enum PickedValues {
    /// The field of one open option of a variant.
    static func field(variant: Variant.ID, option: String) -> String { "choice.\(variant.rawValue).\(option)" }

    /// The values posted for `variant`'s open options, by option name (other variants' ignored).
    static func picked(for variant: Variant.ID?, in form: [(name: String, value: String)]) -> [String: String] {
        guard let variant else { return [:] }
        let prefix = "choice.\(variant.rawValue)."
        var picked: [String: String] = [:]
        for (name, value) in form where name.hasPrefix(prefix) && picked[String(name.dropFirst(prefix.count))] == nil {
            picked[String(name.dropFirst(prefix.count))] = value
        }
        return picked
    }

    /// The line's chosen values posted back by a cart line form (`chosen`; none when absent).
    static func chosen(_ request: Request) -> ChosenValues { ChosenValues(text: request.formValue("chosen") ?? "") }
}
