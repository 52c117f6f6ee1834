/// The result builder behind every element's content closure.
///
/// Inside a builder closure each statement can be:
/// - a ``Node`` such as `p { "Hi" }` (the element functions are free functions; see
///   `Elements.swift` for why not leading-dot `.p { … }`), an optional `Node` (nil renders
///   nothing), or an array `[Node]`;
/// - a `String` (or `String?`), which becomes escaped ``Node/text(_:)``;
/// - a value of a type conforming to ``Component`` (its `body` is used);
/// - `if`, `if`/`else`, `if let`, `switch`, `for … in` and `if #available`.
///
/// ```swift
/// ul(.class("tags")) {
///     for tag in tags { li { tag } }
///     if tags.isEmpty { li(.class("muted")) { "No tags" } }
/// }
/// ```
@resultBuilder
public enum NodeBuilder {
    /// A node statement.
    public static func buildExpression(_ node: Node) -> Node { node }

    /// An optional node; `nil` renders nothing.
    public static func buildExpression(_ node: Node?) -> Node { node ?? .empty }

    /// Several nodes at once (e.g. the result of a `map`).
    public static func buildExpression(_ nodes: [Node]) -> Node { .fragment(nodes) }

    /// A string statement: escaped text.
    public static func buildExpression(_ text: String) -> Node { .text(text) }

    /// An optional string; `nil` renders nothing.
    public static func buildExpression(_ text: String?) -> Node { text.map(Node.text) ?? .empty }

    /// A reusable component: its body.
    public static func buildExpression(_ component: some Component) -> Node { component.body }

    /// The statements of one block, in order.
    public static func buildBlock(_ components: Node...) -> Node {
        components.count == 1 ? components[0] : .fragment(flatten(components))
    }

    /// `if` without `else`.
    public static func buildOptional(_ component: Node?) -> Node { component ?? .empty }

    /// The `if` branch of `if`/`else` (and `switch` cases).
    public static func buildEither(first component: Node) -> Node { component }

    /// The `else` branch of `if`/`else` (and `switch` cases).
    public static func buildEither(second component: Node) -> Node { component }

    /// `for … in` loops.
    public static func buildArray(_ components: [Node]) -> Node { .fragment(flatten(components)) }

    /// `if #available` blocks.
    public static func buildLimitedAvailability(_ component: Node) -> Node { component }

    /// Splices nested fragments into one list so element children stay shallow. A list without
    /// fragments is returned as it is: no copy (most blocks; building trees is a tenth of a
    /// page's CPU, issue #14).
    private static func flatten(_ nodes: [Node]) -> [Node] {
        guard nodes.contains(where: { if case .fragment = $0 { true } else { false } }) else { return nodes }
        var result: [Node] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            if case .fragment(let inner) = node { result.append(contentsOf: inner) } else { result.append(node) }
        }
        return result
    }
}

/// A reusable piece of view: a value whose ``body`` is a node tree.
///
/// Components can be used directly as statements in a ``NodeBuilder`` closure.
///
/// ```swift
/// struct PriceTag: Component {
///     var price: String
///     var compareAt: String?
///     var body: Node {
///         p(.class("price")) {
///             if let compareAt { del { compareAt } }
///             strong { price }
///         }
///     }
/// }
///
/// div(.class("card")) { PriceTag(price: "$149.00", compareAt: "$179.00") }
/// ```
public protocol Component {
    /// The component's markup.
    @NodeBuilder var body: Node { get }
}
