/// Why a campaign file was rejected. Any such error rejects the WHOLE file: nothing is loaded,
/// the campaigns already stored stay as they were, and the merchant fixes the file and runs
/// `shoppable campaigns import` again.
///
/// The description names the place, the campaign (by id, and by position when the id is
/// missing or unusable) and the field, e.g.
/// `campaigns.json:12: campaign “winter-sale” (#2), field “rule.percent”: 150 is outside 1…100`.
public struct CampaignFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name as given to the reader (used only in messages).
    public var file: String
    /// The 1-based line of the offending JSON value (or of its object when the field is
    /// missing); nil for whole-file problems.
    public var line: Int?
    /// The 1-based position of the campaign in the `campaigns` array; nil for whole-file problems.
    public var position: Int?
    /// The campaign's `id` as written in the file, when it has one (even an invalid one).
    public var campaignID: String?
    /// The field as a dotted path inside the campaign (`"startsAt"`, `"rule.percent"`,
    /// `"appliesTo.products"`) or at the top of the file (`"campaigns"`); nil when the problem is
    /// not about one field (e.g. a JSON syntax error).
    public var field: String?
    /// What is wrong and, where possible, what was expected.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int?, position: Int? = nil, campaignID: String? = nil, field: String? = nil,
                message: String) {
        self.file = file
        self.line = line
        self.position = position
        self.campaignID = campaignID
        self.field = field
        self.message = message
    }

    /// `“winter-sale” (#2)`, `#2` when the campaign has no id, or nil for whole-file problems.
    public var campaignName: String? {
        guard let position else { return nil }
        guard let campaignID, !campaignID.isEmpty else { return "#\(position)" }
        return "“\(campaignID)” (#\(position))"
    }

    /// `file:line: campaign “id” (#n), field “path”: message`; parts that are unknown are left out.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        var place: [String] = []
        if let campaignName { place.append("campaign \(campaignName)") }
        if let field { place.append("field “\(field)”") }
        if !place.isEmpty { text += place.joined(separator: ", ") + ": " }
        return text + message
    }
}
