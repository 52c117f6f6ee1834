public import ShopImport

/// One message of a finished import job — its refusal, or one of its warnings — kept with the
/// job (`ImportJobOutcome`) as what happened, not as words: the back office words it in the
/// language of whoever opens the job, whenever that is.
///
/// Stored as JSON: a typed message is an object (`{"refusal": {…}, "text": "…"}`, the English
/// text kept beside it); a plain string is a message stored before messages were typed, shown as
/// it was worded. Anything a later version writes that this one cannot read falls back to that
/// English text, so a job's page never fails to show its outcome.
public enum ImportJobMessage: Hashable, Sendable, Codable {
    /// The file was refused (`ImportError`: file, line, column and the problem).
    case refusal(ImportError)
    /// A caveat of the file (`ImportWarning`).
    case warning(ImportWarning)
    /// A record not imported by design (`SkippedRow`).
    case skipped(SkippedRow)
    /// The import failed for a reason that is not the file's; `detail` is the error, verbatim.
    case failed(file: String, detail: String)
    /// The job's stored outcome cannot be read.
    case unreadable(file: String)
    /// A text kept as worded: a message stored before messages were typed, a catalog store's
    /// own error, or a text the back office already put in the reader's language.
    case text(String)

    private enum CodingKeys: String, CodingKey { case refusal, warning, skipped, failed, detail, unreadable, text }

    /// Decodes a typed message, or a plain string as `.text` (the encoding of jobs stored before
    /// messages were typed), or — for a kind this version does not know — the English text
    /// stored beside it.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .text(text)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let error = try? container.decode(ImportError.self, forKey: .refusal) {
            self = .refusal(error)
        } else if let warning = try? container.decode(ImportWarning.self, forKey: .warning) {
            self = .warning(warning)
        } else if let row = try? container.decode(SkippedRow.self, forKey: .skipped) {
            self = .skipped(row)
        } else if let file = try? container.decode(String.self, forKey: .failed),
                  let detail = try? container.decode(String.self, forKey: .detail) {
            self = .failed(file: file, detail: detail)
        } else if let file = try? container.decode(String.self, forKey: .unreadable) {
            self = .unreadable(file: file)
        } else {
            self = .text(try container.decode(String.self, forKey: .text))
        }
    }

    /// Encodes the typed message, with its English text beside it where it has one (the CLI's
    /// words), for a version that cannot read the type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .refusal(error):
            try container.encode(error, forKey: .refusal)
            try container.encode(error.description, forKey: .text)
        case let .warning(warning):
            try container.encode(warning, forKey: .warning)
            try container.encode(warning.description, forKey: .text)
        case let .skipped(row):
            try container.encode(row, forKey: .skipped)
            try container.encode(row.description, forKey: .text)
        case let .failed(file, detail):
            try container.encode(file, forKey: .failed)
            try container.encode(detail, forKey: .detail)
        case let .unreadable(file):
            try container.encode(file, forKey: .unreadable)
        case let .text(text):
            try container.encode(text, forKey: .text)
        }
    }
}
