import HTTPServer

/// `If-None-Match` (RFC 9110 §13.1.2), answered for every response once its body is final —
/// compressed or not (`ContentEncoding`) —, so a `304 Not Modified` carries the same `ETag`
/// (weak when the body was compressed) and `Vary` as the `200` it stands for, as §15.4.5 asks.
/// Static files, the service worker and the API's catalog reads all go through it.
enum ConditionalRequest {
    /// Turns a `200` to a `GET` or `HEAD` whose `ETag` the request names into a `304` with no
    /// body and no content headers.
    static func apply(to response: inout Response, request: Request) {
        guard request.method == .get || request.method == .head, response.status.code == 200,
              let tag = response.headers["ETag"], let sent = request.headers["If-None-Match"],
              matches(sent, tag) else { return }
        response.status = .notModified
        response.body = []
        for name in ["Content-Type", "Content-Encoding", "Content-Length", "Content-Disposition"] {
            response.headers.remove(name: name)
        }
    }

    /// Weak comparison: `W/` is ignored on both sides; `*` matches any tag.
    static func matches(_ header: String, _ tag: String) -> Bool {
        let wanted = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
        return header.split(separator: ",").contains { part in
            var candidate = Substring(part.utf8.trimmingOptionalWhiteSpace)
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            return candidate == "*" || candidate == wanted
        }
    }
}
