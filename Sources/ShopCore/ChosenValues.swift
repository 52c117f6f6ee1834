/// The values a shopper picked for a variant's open options (WooCommerce "any", issue #13): the
/// variant is one sellable item with one SKU and one stock pool, and the shopper's choice rides
/// along on the cart line and the order line.
///
/// Its canonical text — what the store keeps (`cart_lines.chosen_values`,
/// `order_lines.chosen_values`) and what a form or the API sends back — is `Name=Value` per open
/// option, in the product's option order, joined by a line feed: `"Size=M"`,
/// `"Size=M\nColor=Red"`; the empty text for a variant with no open option. Two lines of one
/// variant with different chosen values are two cart lines.
///
/// ```swift
/// let chosen = try product.chosenValues(for: variant, picked: ["Size": "M"])
/// chosen.text          // "Size=M"
/// chosen.displayText   // "Size: M"
/// ```
public struct ChosenValues: Hashable, Sendable {
    /// One picked value.
    public struct Entry: Hashable, Sendable {
        /// The option's name, e.g. `"Size"`.
        public var name: String
        /// The value picked, e.g. `"M"`.
        public var value: String

        /// Creates an entry.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The picked values, in the product's option order.
    public var entries: [Entry]

    /// Nothing picked: the line of a variant without open options.
    public static let none = ChosenValues(entries: [])

    /// Creates chosen values from entries (in option order).
    public init(entries: [Entry]) { self.entries = entries }

    /// Reads the canonical text (`"Size=M\nColor=Red"`); the empty text is ``none``. A part without
    /// `=` is an entry with an empty value (it then matches no allowed value and is refused).
    public init(text: String) {
        entries = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map { part in
            guard let equals = part.firstIndex(of: "=") else { return Entry(name: String(part), value: "") }
            return Entry(name: String(part[..<equals]), value: String(part[part.index(after: equals)...]))
        }
    }

    /// `true` when nothing was picked.
    public var isEmpty: Bool { entries.isEmpty }

    /// The canonical text: `Name=Value` per entry joined by a line feed; empty for ``none``.
    public var text: String { entries.map { "\($0.name)=\($0.value)" }.joined(separator: "\n") }

    /// For people: `"Size: M, Color: Red"`; empty for ``none``.
    public var displayText: String { entries.map { "\($0.name): \($0.value)" }.joined(separator: ", ") }

    /// The picked values as a dictionary by option name.
    public var byName: [String: String] {
        Dictionary(entries.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

extension Variant {
    /// `true` when an option of this variant is open: the shopper picks its value (Woo "any").
    public var isOpen: Bool { optionChoices.contains { !$0.isEmpty } }
}

extension Product {
    /// `true` when a shopper must choose before buying — one of several variants, or the value
    /// of an open option — so a card offers "Choose options", not a one-tap "Add" that the cart
    /// would refuse ("Please choose an option").
    public var needsChoice: Bool { (hasOptions && variants.count > 1) || variants.contains(where: \.isOpen) }
}

extension Variant {
    /// The variant as bought with `chosen`: each open option value filled in with the picked one,
    /// so its `title` reads `"M"` (not `""`) on cart, order and email lines. Unknown names are
    /// ignored; a variant without open options comes back as it is.
    /// - Parameters:
    ///   - chosen: the values the shopper picked.
    ///   - optionNames: the product's option names.
    public func filling(_ chosen: ChosenValues, optionNames: [String]) -> Variant {
        guard isOpen, !chosen.isEmpty else { return self }
        var variant = self
        let picked = chosen.byName
        for index in variant.optionValues.indices where index < optionNames.count && variant.optionValues[index].isEmpty {
            if let value = picked[optionNames[index]] { variant.optionValues[index] = value }
        }
        return variant
    }
}

extension Product {
    /// The one rule for what a shopper may pick for a variant: every open option of `variant`
    /// needs a value from its allowed list (`Variant.optionChoices`), and a variant without open
    /// options takes none.
    /// - Parameters:
    ///   - variant: one of this product's variants.
    ///   - picked: the values sent, by option name (extra names, and names of options that are not
    ///     open, are ignored).
    /// - Returns: the chosen values in option order (``ChosenValues/none`` for a variant without
    ///   open options).
    /// - Throws: `CartError.valueNotChosen(option:)` when an open option has no value,
    ///   `CartError.valueNotAllowed(option:value:)` when the value is not in its list.
    public func chosenValues(for variant: Variant, picked: [String: String]) throws(CartError) -> ChosenValues {
        guard variant.isOpen else { return .none }
        var entries: [ChosenValues.Entry] = []
        for (index, choices) in variant.optionChoices.enumerated() where !choices.isEmpty && index < optionNames.count {
            let name = optionNames[index]
            let value = (picked[name] ?? "").trimmedOfWhiteSpace
            guard !value.isEmpty else { throw .valueNotChosen(option: name) }
            guard let allowed = choices.first(where: { $0 == value }) else {
                throw .valueNotAllowed(option: name, value: value)
            }
            entries.append(ChosenValues.Entry(name: name, value: allowed))
        }
        return ChosenValues(entries: entries)
    }
}

extension Product {
    /// `true` when `chosen` is still what this product sells as `variant`: exactly the values
    /// `chosenValues(for:picked:)` would accept for it now. A cart line whose pick the merchant has
    /// since withdrawn (a re-import offering fewer values, an option no longer open, or one newly
    /// open) is then no longer sold, like a line of a variant that is gone: the cart leaves it out
    /// with a notice and a placement answers "unavailable".
    public func stillOffers(_ chosen: ChosenValues, for variant: Variant) -> Bool {
        (try? chosenValues(for: variant, picked: chosen.byName)) == chosen
    }
}
