// A request as the server decodes it: target, header fields and body.
//
// Input layout: the first line is the method and request target (`POST /cart?x=1`), then
// `Name: value` header lines up to an empty line, then the body (as in HTTP/1.1).
import FuzzSupport
import HTTPServer

fuzz { bytes in
    var lines = pieces(of: bytes, separatedBy: UInt8(ascii: "\n"))
    let requestLine = text(lines.removeFirst()).split(separator: " ", maxSplits: 1)
    var headers = HTTPHeaders()
    while let line = lines.first, !line.isEmpty {
        lines.removeFirst()
        let field = text(line).split(separator: ":", maxSplits: 1)
        headers.add(name: String(field.first ?? ""), value: String(field.count > 1 ? field[1] : ""))
    }
    let body = Array(lines.dropFirst().joined(separator: [UInt8(ascii: "\n")]))
    let method = HTTPMethod(rawValue: requestLine.count > 1 ? String(requestLine[0]) : "GET")
    let target = String(requestLine.last ?? "/")
    guard let request = try? Request(method: method, target: target, headers: headers, body: body) else { return }
    for (name, _) in request.query { _ = request.queryValue(name) }
    for (name, _) in request.form { _ = request.formValue(name) }
}
