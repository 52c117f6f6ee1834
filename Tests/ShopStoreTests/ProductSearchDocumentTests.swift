import ShopCore
import ShopStore
import Testing

/// Issue #13, point 6: the faster ways a store folds and stems a product for its index give the
/// very text the one-family-at-a-time way gives.
@Suite("Product search documents")
struct ProductSearchDocumentTests {
    @Test(.bug(id: "13"), arguments: [
        ("Oak Chair", "Nordic Co", ["walnut", "Sale"], "Chairs", "A sturdy oak chair.", ["CH-1", " ch-1 ", nil]),
        ("IŞIK Lamba", "Işık Evi", ["İndirim", "lamba"], "Lambalar", "Işıklı masa lambası, İstanbul.", ["L-1"]),
        ("Silla de pino", "", [], nil, "", []),
        ("Mugs", "Iron & Ink", ["I"], "Kupa", "Iıİi", ["M-1", "M-2"]),
    ] as [(String, String, [String], String?, String, [String?])])
    func allFamiliesMatchOneDocumentPerFamily(title: String, vendor: String, tags: [String], category: String?,
                                              description: String, skus: [String?]) {
        let barcodes: [String?] = skus.isEmpty ? [] : ["4006381 333931", nil, " "]
        let stemmer = ProductSearchStemmer()
        let together = ProductSearchDocument.allFamilies(title: title, vendor: vendor, tags: tags, categoryName: category,
                                                         descriptionText: description, skus: skus, barcodes: barcodes,
                                                         stemmer: stemmer)
        let apart = ProductSearchRules.Family.allCases.map { family in
            ProductSearchDocument(title: title, vendor: vendor, tags: tags, categoryName: category,
                                  descriptionText: description, skus: skus, barcodes: barcodes, family: family,
                                  stemmer: ProductSearchStemmer())
        }
        #expect(together == apart)
    }

    /// One stemmer folding many products in a row (it remembers each run of text between white
    /// space and each word) gives each the documents fresh folding gives: white space of every
    /// kind, marks and Turkish `İ` next to it, words met before in other fields and families.
    @Test(.bug(id: "13")) func aStemmerThatRemembersRunsFoldsAsFreshOnes() {
        let products: [(title: String, vendor: String, tags: [String], category: String?, description: String)] = [
            ("IŞIK Lamba", "Işık Evi", ["İndirim", "lamba"], "Lambalar", "Işıklı masa lambası,\nİstanbul'da."),
            ("Işık  lamba\t", " ", ["lamba", "LAMBA"], "lambalar", "lambası \u{0301}ışık I\u{0307}stanbul I \u{0307}x"),
            ("Oak\u{00A0}Chair", "Nordic\u{0B}Co", ["oak", "chair."], "Chairs", "chair, chair.\r\nOAK\u{0C}oak ﬁne ²"),
            ("Oak Chair", "", [], nil, ""),
            ("", "", [""], " ", " \n\t "),
            ("Café Straße", "Iron & Ink", ["I", "ı"], "Kupa", "Iıİi café straße Café"),
        ]
        let shared = ProductSearchStemmer()
        for product in products + products.reversed() {
            let remembered = ProductSearchDocument.allFamilies(
                title: product.title, vendor: product.vendor, tags: product.tags, categoryName: product.category,
                descriptionText: product.description, stemmer: shared)
            let fresh = ProductSearchRules.Family.allCases.map { family in
                ProductSearchDocument(title: product.title, vendor: product.vendor, tags: product.tags,
                                      categoryName: product.category, descriptionText: product.description,
                                      family: family, stemmer: ProductSearchStemmer())
            }
            #expect(remembered == fresh, "\(product.title)")
        }
    }

    /// A stemmer that has seen other words (it remembers each word's stems) stems a text as
    /// fresh stemmers stem its words one by one: each word's stems, without repeats, in order.
    @Test(.bug(id: "13")) func aStemmerThatRemembersWordsStemsAsFreshOnes() {
        let texts = ["lambalar masa lamba", "mugs mug sillas", "lambalar sillas oak chairs", "chairs chair chairs"]
        let used = ProductSearchStemmer()
        for text in texts + texts.reversed() {
            var expected: [Substring] = []
            for word in text.split(separator: " ") {
                for stem in ProductSearchStemmer().indexStems(of: String(word)).split(separator: " ")
                where !expected.contains(stem) {
                    expected.append(stem)
                }
            }
            #expect(used.indexStems(of: text) == expected.joined(separator: " "))
        }
    }
}
