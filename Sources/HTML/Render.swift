/// Renders a node tree to UTF-8 bytes, ready to be sent as a response body.
///
/// Output is minified (no added whitespace) and deterministic: the same tree always gives the
/// same bytes. Text, comments and attribute values are escaped on their UTF-8 bytes.
///
/// - Parameters:
///   - node: the tree to render.
///   - reservingCapacity: bytes to reserve up front; a typical product-list page is 5–20 KB.
/// - Returns: the HTML as UTF-8 bytes.
public func render(_ node: Node, reservingCapacity: Int = 16_384) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(reservingCapacity)
    render(node, into: &output)
    return output
}

/// Appends the rendering of `node` (UTF-8 bytes) to `output`.
///
/// Reserve capacity on `output` before calling this to avoid regrowing the buffer.
/// - Parameters:
///   - node: the tree to render.
///   - output: the buffer the bytes are appended to.
public func render(_ node: Node, into output: inout [UInt8]) {
    switch node {
    case .element(let tag, let attributes, let children):
        appendOpenTag(tag, attributes, into: &output)
        for child in children { render(child, into: &output) }
        output.append(UInt8(ascii: "<"))
        output.append(UInt8(ascii: "/"))
        appendStatic(tag, into: &output)
        output.append(UInt8(ascii: ">"))
    case .voidElement(let tag, let attributes):
        appendOpenTag(tag, attributes, into: &output)
    case .text(let text):
        appendEscaped(text, into: &output)
    case .raw(let markup):
        output.append(contentsOf: markup.utf8)
    case .rawUTF8(let markup):
        output.append(contentsOf: markup)
    case .fragment(let children):
        for child in children { render(child, into: &output) }
    case .comment(let text):
        appendStatic("<!--", into: &output)
        appendEscaped(text, into: &output)
        appendStatic("-->", into: &output)
    }
}

/// Renders a node tree to a `String` (convenient in tests; servers should use the byte form).
/// - Parameter node: the tree to render.
/// - Returns: the HTML.
public func renderString(_ node: Node) -> String {
    String(decoding: render(node, reservingCapacity: 1024), as: UTF8.self)
}

extension Node {
    /// This node rendered as UTF-8 bytes; see ``render(_:reservingCapacity:)``.
    public var bytes: [UInt8] { render(self) }
}

// MARK: - Internals

@inline(__always)
func appendStatic(_ string: StaticString, into output: inout [UInt8]) {
    string.withUTF8Buffer { output.append(contentsOf: $0) }
}

func appendOpenTag(_ tag: StaticString, _ attributes: [Attribute], into output: inout [UInt8]) {
    output.append(UInt8(ascii: "<"))
    appendStatic(tag, into: &output)
    for attribute in attributes {
        switch attribute.value {
        case .boolean(false):
            continue
        case .boolean(true):
            output.append(UInt8(ascii: " "))
            appendStatic(attribute.prefix, into: &output)
            appendStatic(attribute.name, into: &output)
        case .string(let value):
            output.append(UInt8(ascii: " "))
            appendStatic(attribute.prefix, into: &output)
            appendStatic(attribute.name, into: &output)
            output.append(UInt8(ascii: "="))
            output.append(UInt8(ascii: "\""))
            appendEscaped(value, into: &output)
            output.append(UInt8(ascii: "\""))
        }
    }
    output.append(UInt8(ascii: ">"))
}

/// Appends `text` with `& < > " '` replaced by `&amp; &lt; &gt; &quot; &#39;`, copying the runs
/// between special bytes in bulk. All five are ASCII, so scanning UTF-8 bytes never splits a
/// multi-byte character.
func appendEscaped(_ text: String, into output: inout [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
        var runStart = 0
        for index in bytes.indices {
            let replacement: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            if runStart < index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            appendStatic(replacement, into: &output)
            runStart = index + 1
        }
        if runStart < bytes.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
}
