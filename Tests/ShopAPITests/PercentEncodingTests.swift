import Foundation
import ShopAPI
import Testing

/// `RouteRequest`'s encoders write exactly what Foundation's `addingPercentEncoding` writes for
/// the sets they stand for (a path segment: `urlPathAllowed` without `/?#`; a query value:
/// `urlQueryAllowed` without `&=+?#`).
@Suite("Percent-encoding of links")
struct PercentEncodingTests {
    static let texts: [String] = [
        "oak-chair", "oak chair", "/categories/bench?page=2", "a&b=c+d#e", "100%", "ç ğ ı ö ş ü İ",
        "mañana ¿qué?", "emoji 🪑", "~user!$'()*,;:@", "",
        String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
    ]

    @Test(arguments: texts)
    func segmentsAndQueryValuesAreEncodedAsFoundationWould(text: String) {
        var segment = CharacterSet.urlPathAllowed
        segment.remove(charactersIn: "/?#")
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: "&=+?#")
        #expect(RouteRequest.encodeSegment(text) == text.addingPercentEncoding(withAllowedCharacters: segment))
        #expect(RouteRequest.encodeQueryValue(text) == text.addingPercentEncoding(withAllowedCharacters: query))
    }
}
