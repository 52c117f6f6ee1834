import ShopCore

/// Amounts typed in the back office's forms (product, bulk change, campaign), read in the staff
/// member's language (`Money.parse(typed:)`), with one wording for every refusal of too many
/// decimals: "USD prices have at most 2 decimals, for example 19.99." (A second fresh tester got
/// the bulk change's all-purpose message, and the campaign form's "more than zero", for `19.999`.)
enum AdminAmounts {
    /// The amount in `text`, or the message saying why not: too many decimals in those words,
    /// else `message` filled with the example amount.
    static func read(_ text: String, currency: Currency, _ l10n: Localizer,
                     else message: L10nKey) -> Result<Money, Refusal> {
        let example = Money(minorUnits: 1999, currency: currency).typedString(language: l10n.language)
        do {
            return .success(try Money.parse(typed: text, language: l10n.language, currency: currency))
        } catch .tooManyDecimals(_, let digits) {
            return .failure(Refusal(message: l10n(.adminProductErrorDecimals, ["currency": currency.code,
                                                                               "digits": l10n.number(digits),
                                                                               "example": example])))
        } catch {
            return .failure(Refusal(message: l10n(message, ["example": example])))
        }
    }

    /// Why a typed amount was refused, in the staff member's language.
    struct Refusal: Error {
        var message: String
    }
}
