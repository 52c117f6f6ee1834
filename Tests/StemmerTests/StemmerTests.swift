import Stemmer
import Testing

@Suite("Stemmer")
struct StemmerTests {
    @Test("a plural and its singular meet on one stem", arguments: [
        (Stemmer.Language.english, "mugs", "mug"),
        (.english, "lamps", "lamp"),
        (.english, "chairs", "chair"),
        (.turkish, "lambalar", "lamba"),
        (.spanish, "sillas", "silla"),
        (.spanish, "mesas", "mesa"),
    ])
    func pluralsMeet(language: Stemmer.Language, plural: String, singular: String) {
        let stemmer = Stemmer(language)
        #expect(stemmer.stem(plural) == stemmer.stem(singular))
        #expect(!stemmer.stem(plural).isEmpty)
    }

    @Test func emptyAndNonLatinWordsComeBackWhole() {
        let stemmer = Stemmer(.english)
        #expect(stemmer.stem("") == "")
        #expect(stemmer.stem("ışık").isEmpty == false)
    }

    @Test func knownStems() {
        #expect(Stemmer(.english).stem("mugs") == "mug")
        #expect(Stemmer(.spanish).stem("sillas") == Stemmer(.spanish).stem("silla"))
    }
}
