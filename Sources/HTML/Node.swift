/// One node of an HTML document tree.
///
/// Views build `Node` values (usually with ``NodeBuilder`` and the element functions such as
/// `div(_:content:)`) and hand the tree to ``render(_:reservingCapacity:)``. Escaping happens
/// by construction when rendering:
///
/// - ``text(_:)`` content is escaped (`& < > " '` → `&amp; &lt; &gt; &quot; &#39;`);
/// - attribute values are escaped the same way (see ``Attribute``);
/// - tag and attribute names are `StaticString`s, so they are always written in code;
/// - ``raw(unsafe:)`` is the only way to put unescaped markup into the output.
///
/// ```swift
/// let card = article(.class("card"), .data("product-id", "12")) {
///     a(.href("/products/12")) { img(.src(imageURL), .alt(title)) }
///     h2 { title }              // a String becomes escaped text
///     if onSale { del { wasPrice } }
///     for tag in tags { span(.class("tag")) { tag } }
/// }
/// ```
public enum Node: Sendable {
    /// An element with a closing tag: `<tag attributes…>children…</tag>`.
    ///
    /// Use ``voidElement(_:_:)`` for elements that have no closing tag (`br`, `img`, …).
    case element(StaticString, [Attribute], [Node])

    /// A void element, rendered without a closing tag and without children: `<tag attributes…>`.
    ///
    /// The HTML Living Standard §13.1.2 lists the void elements: `area, base, br, col, embed, hr,
    /// img, input, link, meta, source, track, wbr`.
    case voidElement(StaticString, [Attribute])

    /// Text content, escaped when rendered (`&`, `<`, `>`, `"`, `'`).
    case text(String)

    /// Markup written to the output exactly as given, without any escaping.
    ///
    /// **Dangerous**: never pass user-controlled or imported data here unless it has been
    /// sanitized first (e.g. product descriptions that went through an HTML sanitizer).
    case raw(unsafe: String)

    /// UTF-8 markup written to the output exactly as given: what ``HTMLWriter`` wrote, placed
    /// in a tree without making a `String` of it (and checking its UTF-8 again). The same
    /// warning as ``raw(unsafe:)``.
    case rawUTF8(unsafe: [UInt8])

    /// A sequence of sibling nodes with no wrapping element.
    case fragment([Node])

    /// An HTML comment `<!-- … -->`. Its text is escaped like ``text(_:)``, so it cannot
    /// close the comment early.
    case comment(String)

    /// A node that renders nothing.
    public static let empty: Node = .fragment([])

    /// The node as a list of children: a fragment's members, or the node itself.
    var children: [Node] {
        if case .fragment(let nodes) = self { return nodes }
        return [self]
    }
}
