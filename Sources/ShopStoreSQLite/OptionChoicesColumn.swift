import Foundation
import ShopStore

/// `variants.option_choices` (migration 23): a variant's allowed values per open option
/// (`Variant.optionChoices`) as a JSON array of arrays of strings, NULL when it has no open option.
enum OptionChoicesColumn {
    /// `[[],["S","M"]]`, or nil for a variant without open options.
    static func encode(_ choices: [[String]]) -> String? {
        guard choices.contains(where: { !$0.isEmpty }) else { return nil }
        return "[" + choices.map(JSONStringArray.encode).joined(separator: ",") + "]"
    }

    /// The lists of `text` (nil: none).
    /// - Throws: `SQLiteStoreError.corruptValue` when `text` is not such an array.
    static func decode(_ text: String?, rowID: Int64) throws -> [[String]] {
        guard let text else { return [] }
        guard let data = text.data(using: .utf8),
              let lists = try? JSONDecoder().decode([[String]].self, from: data) else {
            throw SQLiteStoreError.corruptValue(table: "variants", column: "option_choices", rowID: rowID)
        }
        return lists
    }
}
