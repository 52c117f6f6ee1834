// Percent-decoding of paths and query strings and `application/x-www-form-urlencoded` bodies.
//
// Invariants: decoding what the encoders wrote gives back the text, for any text without a NUL;
// a text with one is refused (`nulCharacter`: no text of the shop holds a NUL).
import FuzzSupport
import HTTPServer

fuzz { bytes in
    let input = text(bytes)
    _ = try? URLEncoding.percentDecode(input, component: .path)
    _ = try? URLEncoding.percentDecode(input, plusAsSpace: true, component: .query)
    _ = try? URLEncoding.decodeQuery(input)
    _ = try? URLEncoding.decodeForm(bytes)

    let path = URLEncoding.percentEncodePath(input)
    if input.utf8.contains(0) {
        var refused = false
        do { _ = try URLEncoding.percentDecode(path) } catch let error as RequestDecodingError { refused = error == .nulCharacter(.path) } catch {}
        invariant(refused, "a NUL in a path is refused: \(input.debugDescription)")
    } else {
        invariant((try? URLEncoding.percentDecode(path)) == input, "path round trip: \(input.debugDescription)")
    }

    let parts = pieces(of: bytes, separatedBy: 0).map(text)
    let name = parts[0]
    let value = parts.count > 1 ? parts[1] : ""
    let form = URLEncoding.formEncode(name) + "=" + URLEncoding.formEncode(value)
    let decoded = try? URLEncoding.decodeForm(form)
    invariant(decoded?.count == 1 && decoded?[0].name == name && decoded?[0].value == value,
                 "form round trip: \(name.debugDescription)=\(value.debugDescription)")
}
