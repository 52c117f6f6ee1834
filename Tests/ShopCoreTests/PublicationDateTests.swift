import Foundation
import ShopCore
import Testing

/// `ProductDraft.datedIfPublished`: publishing dates a product that has no date; nothing else does.
@Suite("Publication date")
struct PublicationDateTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let earlier = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: [
        // (was published?: nil = new, is published, had a date, dated now?)
        (Bool?.none, true, false, true),    // a new product, published: dated now
        (nil, false, false, false),         // a new draft: no date
        (nil, true, true, false),           // a new product with its own date keeps it
        (false, true, false, true),         // published now: dated
        (false, true, true, false),         // published now with a date: kept
        (true, true, false, false),         // already published without a date: a save changes nothing
        (false, false, false, false),       // still unpublished
    ])
    func publishingDatesAProductWithoutADate(wasPublished: Bool?, isPublished: Bool, hadDate: Bool, datedNow: Bool) {
        var draft = ProductDraft(handle: "oak-chair", title: "Oak chair", isPublished: isPublished, variants: [])
        draft.publishedAt = hadDate ? Self.earlier : nil
        let previous = wasPublished.map { published -> ProductDraft in
            var previous = draft
            previous.isPublished = published
            return previous
        }
        let dated = draft.datedIfPublished(since: previous, now: Self.now)
        #expect(dated.publishedAt == (datedNow ? Self.now : draft.publishedAt))
    }
}
