/// Writes HTML straight to UTF-8 bytes: the bytes ``render(_:reservingCapacity:)`` gives for the
/// same tree, escaped the same way, without building the tree.
///
/// For the components a page repeats dozens of times (a listing's product cards): a node tree
/// costs about three allocations per element — its attributes, its children, its builder block —
/// and then a walk and a release of each. Elements nest through closures, so every tag written
/// is closed.
///
/// ```swift
/// var writer = HTMLWriter()
/// writer.element("p", .class("price")) { writer in
///     writer.element("span", .class("price-now"), text: "$10.00")
/// }
/// writer.node   // .rawUTF8(unsafe: Array("<p class=\"price\"><span class=\"price-now\">$10.00</span></p>".utf8))
/// ```
public struct HTMLWriter {
    /// What has been written, as UTF-8.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 1_024) {
        bytes.reserveCapacity(capacity)
    }

    /// `<tag attributes…>`, what `content` writes, `</tag>`.
    public mutating func element(_ tag: StaticString, _ attributes: Attribute..., content: (inout HTMLWriter) -> Void) {
        appendOpenTag(tag, attributes, into: &bytes)
        content(&self)
        close(tag)
    }

    /// `<tag attributes…>text</tag>`, the text escaped.
    public mutating func element(_ tag: StaticString, _ attributes: Attribute..., text: String) {
        appendOpenTag(tag, attributes, into: &bytes)
        appendEscaped(text, into: &bytes)
        close(tag)
    }

    /// A void element: `<tag attributes…>` (`input`, `img`, `source`, …).
    public mutating func void(_ tag: StaticString, _ attributes: Attribute...) {
        appendOpenTag(tag, attributes, into: &bytes)
    }

    /// Text, escaped.
    public mutating func text(_ text: String) {
        appendEscaped(text, into: &bytes)
    }

    /// Markup as given, not escaped: the same warning as ``Node/raw(unsafe:)``.
    public mutating func raw(unsafe markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// A node tree, rendered.
    public mutating func write(_ node: Node) {
        render(node, into: &bytes)
    }

    /// What was written, as a node to place in a tree.
    public var node: Node { .rawUTF8(unsafe: bytes) }

    private mutating func close(_ tag: StaticString) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        appendStatic(tag, into: &bytes)
        bytes.append(UInt8(ascii: ">"))
    }
}
