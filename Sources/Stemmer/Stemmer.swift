import CStemmer

/// Snowball stemmers (<https://snowballstem.org>) through Debian's `libstemmer`: a word's stem,
/// so that the forms of one word ("mugs", "mug"; "lambalar", "lamba"; "sillas", "silla") meet
/// on one index term. The only module that touches `CStemmer`; no C pointer leaves it.
///
/// An instance is not safe to share between threads (libstemmer keeps per-stemmer state): make
/// one per task, e.g. one per batch of products to index.
///
/// ```swift
/// let english = Stemmer(.english)
/// english.stem("mugs")  // "mug"
/// Stemmer(.turkish).stem("lambalar")  // "lamba"
/// ```
public final class Stemmer {
    /// The Snowball algorithms the shop uses, named as libstemmer names them.
    public enum Language: String, Sendable, CaseIterable {
        case english
        case turkish
        case spanish
    }

    /// The algorithm this stemmer runs.
    public let language: Language
    private let handle: OpaquePointer

    /// A stemmer for `language` (UTF-8).
    /// - Precondition: libstemmer has the algorithm and memory to make it (Debian's package
    ///   has all three; `sb_stemmer_new` fails only on an unknown name or out of memory).
    public init(_ language: Language) {
        guard let handle = sb_stemmer_new(language.rawValue, "UTF_8") else {
            preconditionFailure("libstemmer has no \(language.rawValue) stemmer")
        }
        self.language = language
        self.handle = handle
    }

    deinit { sb_stemmer_delete(handle) }

    /// The stem of one lower-case word (Snowball expects lower-case input; words of
    /// `SearchFolding` qualify). Returns `word` unchanged when it is empty or libstemmer
    /// cannot stem it (out of memory).
    public func stem(_ word: String) -> String {
        guard !word.isEmpty else { return word }
        let bytes = Array(word.utf8)
        let stemmed: String? = bytes.withUnsafeBufferPointer { input in
            guard let output = sb_stemmer_stem(handle, input.baseAddress, Int32(input.count)) else { return nil }
            let length = Int(sb_stemmer_length(handle))
            return String(decoding: UnsafeBufferPointer(start: output, count: length), as: UTF8.self)
        }
        return stemmed ?? word
    }
}
