// The HTML elements as free functions (HTML Living Standard §4), so that a view reads
// `div(.class("card")) { h2 { title } }`.
//
// Why free functions and not `Node.div` used as `.div { … }`: inside a builder closure a line that
// starts with `.` continues the expression on the line before (`.head { … }` newline `.body { … }`
// parses as `.head { … }.body { … }`), so leading-dot statements only work for the first statement
// of each block. Free functions have no such trap.

/// A whole document: `<!DOCTYPE html><html lang="…">…</html>`.
///
/// ```swift
/// document(lang: "en") {
///     head { meta(.charset("utf-8")); title { "Shoppable" } }
///     body { main { "Hello" } }
/// }
/// ```
/// - Parameters:
///   - lang: the BCP 47 language tag of the page, e.g. `"en"`.
///   - attributes: more attributes of `<html>`, e.g. `.data("theme", "dark")`.
///   - content: the `head` and `body`.
public func document(lang: String, _ attributes: Attribute..., @NodeBuilder content: () -> Node) -> Node {
    .fragment([.raw(unsafe: "<!DOCTYPE html>"), .element("html", [.lang(lang)] + attributes, content().children)])
}

/// Sibling nodes with no wrapping element.
///
/// ```swift
/// fragment {
///     dt { "Vendor" }
///     dd { product.vendor }
/// }
/// ```
public func fragment(@NodeBuilder content: () -> Node) -> Node {
    .fragment(content().children)
}

/// `<script src="…"></script>`: an external script only. Inline scripts are not supported (the
/// Content-Security-Policy forbids them). Add `.defer` or `.async` as needed.
public func script(src: String, _ attributes: Attribute...) -> Node {
    .element("script", [.src(src)] + attributes, [])
}

// MARK: - Elements with content

/// `<html>`: the document root (prefer `document(lang:content:)`, which adds the doctype).
public func html(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("html", attributes, content().children)
}

/// `<head>`: document metadata.
public func head(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("head", attributes, content().children)
}

/// `<body>`: the document body.
public func body(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("body", attributes, content().children)
}

/// `<title>`: the document title; its text is escaped.
public func title(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("title", attributes, content().children)
}

/// `<main>`: the page's main content.
public func main(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("main", attributes, content().children)
}

/// `<header>`: introductory content or a group of navigational aids.
public func header(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("header", attributes, content().children)
}

/// `<footer>`: a footer for its nearest section or the page.
public func footer(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("footer", attributes, content().children)
}

/// `<nav>`: a block of navigation links.
public func nav(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("nav", attributes, content().children)
}

/// `<section>`: a generic section of a document.
public func section(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("section", attributes, content().children)
}

/// `<article>`: a self-contained composition, e.g. a product card.
public func article(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("article", attributes, content().children)
}

/// `<aside>`: content tangential to the content around it.
public func aside(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("aside", attributes, content().children)
}

/// `<div>`: a generic block container.
public func div(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("div", attributes, content().children)
}

/// `<span>`: a generic inline container.
public func span(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("span", attributes, content().children)
}

/// `<p>`: a paragraph.
public func p(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("p", attributes, content().children)
}

/// `<a>`: a hyperlink; give it `.href(_:)`.
public func a(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("a", attributes, content().children)
}

/// `<ul>`: an unordered list.
public func ul(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("ul", attributes, content().children)
}

/// `<ol>`: an ordered list.
public func ol(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("ol", attributes, content().children)
}

/// `<li>`: a list item.
public func li(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("li", attributes, content().children)
}

/// `<h1>`: a level-1 heading.
public func h1(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("h1", attributes, content().children)
}

/// `<h2>`: a level-2 heading.
public func h2(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("h2", attributes, content().children)
}

/// `<h3>`: a level-3 heading.
public func h3(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("h3", attributes, content().children)
}

/// `<h4>`: a level-4 heading.
public func h4(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("h4", attributes, content().children)
}

/// `<strong>`: strong importance.
public func strong(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("strong", attributes, content().children)
}

/// `<em>`: stress emphasis.
public func em(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("em", attributes, content().children)
}

/// `<b>`: text brought to attention.
public func b(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("b", attributes, content().children)
}

/// `<i>`: text in an alternate voice.
public func i(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("i", attributes, content().children)
}

/// `<del>`: removed text, e.g. a compare-at price.
public func del(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("del", attributes, content().children)
}

/// `<ins>`: inserted text.
public func ins(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("ins", attributes, content().children)
}

/// `<small>`: side comments, fine print.
public func small(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("small", attributes, content().children)
}

/// `<code>`: a fragment of computer code.
public func code(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("code", attributes, content().children)
}

/// `<pre>`: preformatted text.
public func pre(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("pre", attributes, content().children)
}

/// `<blockquote>`: a quotation.
public func blockquote(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("blockquote", attributes, content().children)
}

/// `<form>`: a form; give it `.action(_:)` and `.method(_:)`.
public func form(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("form", attributes, content().children)
}

/// `<button>`: a button; set `.type("submit")` or `.type("button")` explicitly.
public func button(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("button", attributes, content().children)
}

/// `<label>`: a caption for a form control; link it with `.for(_:)`.
public func label(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("label", attributes, content().children)
}

/// `<select>`: a drop-down of `option`s.
public func select(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("select", attributes, content().children)
}

/// `<option>`: one choice of a `select`.
public func option(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("option", attributes, content().children)
}

/// `<textarea>`: a multi-line text control; its content is the (escaped) initial value.
public func textarea(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("textarea", attributes, content().children)
}

/// `<fieldset>`: a group of form controls.
public func fieldset(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("fieldset", attributes, content().children)
}

/// `<legend>`: the caption of a `fieldset`.
public func legend(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("legend", attributes, content().children)
}

/// `<output>`: the result of a calculation.
public func output(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("output", attributes, content().children)
}

/// `<table>`: a table.
public func table(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("table", attributes, content().children)
}

/// `<thead>`: table header rows.
public func thead(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("thead", attributes, content().children)
}

/// `<tbody>`: table body rows.
public func tbody(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("tbody", attributes, content().children)
}

/// `<tfoot>`: table footer rows.
public func tfoot(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("tfoot", attributes, content().children)
}

/// `<tr>`: a table row.
public func tr(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("tr", attributes, content().children)
}

/// `<th>`: a header cell.
public func th(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("th", attributes, content().children)
}

/// `<td>`: a data cell.
public func td(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("td", attributes, content().children)
}

/// `<caption>`: a table caption.
public func caption(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("caption", attributes, content().children)
}

/// `<figure>`: self-contained content with an optional caption.
public func figure(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("figure", attributes, content().children)
}

/// `<figcaption>`: the caption of a `figure`.
public func figcaption(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("figcaption", attributes, content().children)
}

/// `<picture>`: an `img` with alternative `source`s.
public func picture(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("picture", attributes, content().children)
}

/// `<dl>`: a description list.
public func dl(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("dl", attributes, content().children)
}

/// `<dt>`: a term in a description list.
public func dt(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("dt", attributes, content().children)
}

/// `<dd>`: a description in a description list.
public func dd(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("dd", attributes, content().children)
}

/// `<time>`: a date or time; give it a machine-readable `.datetime(_:)`.
public func time(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("time", attributes, content().children)
}

/// `<progress>`: how far a task is; give it `max` and `value` (without `value` it shows a task
/// under way whose end is unknown). Its content is the fallback text.
public func progress(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("progress", attributes, content().children)
}

/// `<details>`: a disclosure widget.
public func details(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("details", attributes, content().children)
}

/// `<summary>`: the visible label of `details`.
public func summary(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("summary", attributes, content().children)
}

/// `<dialog>`: a dialog box.
public func dialog(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("dialog", attributes, content().children)
}

/// `<template>`: inert markup for later cloning.
public func template(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("template", attributes, content().children)
}

/// `<noscript>`: content shown only without scripting.
public func noscript(_ attributes: Attribute..., @NodeBuilder content: () -> Node = { .empty }) -> Node {
    .element("noscript", attributes, content().children)
}

// MARK: - Void elements (no closing tag, no children)

/// `<meta>`: document metadata (`.charset`, `.name` + `.content`). A void element: no closing tag.
public func meta(_ attributes: Attribute...) -> Node {
    .voidElement("meta", attributes)
}

/// `<link>`: a link to an external resource, e.g. the stylesheet. A void element: no closing tag.
public func link(_ attributes: Attribute...) -> Node {
    .voidElement("link", attributes)
}

/// `<img>`: an image; always give it `.alt(_:)`. A void element: no closing tag.
public func img(_ attributes: Attribute...) -> Node {
    .voidElement("img", attributes)
}

/// `<input>`: a form control. A void element: no closing tag.
public func input(_ attributes: Attribute...) -> Node {
    .voidElement("input", attributes)
}

/// `<br>`: a line break. A void element: no closing tag.
public func br(_ attributes: Attribute...) -> Node {
    .voidElement("br", attributes)
}

/// `<hr>`: a thematic break. A void element: no closing tag.
public func hr(_ attributes: Attribute...) -> Node {
    .voidElement("hr", attributes)
}

/// `<source>`: an alternative source of a `picture`. A void element: no closing tag.
public func source(_ attributes: Attribute...) -> Node {
    .voidElement("source", attributes)
}

extension Node {
    /// Any element with a closing tag, for tags without a dedicated function.
    /// - Parameters:
    ///   - tag: the tag name (lower-case, written in code).
    ///   - attributes: the attributes, rendered in order.
    ///   - content: the children.
    public static func element(
        _ tag: StaticString, _ attributes: [Attribute] = [], @NodeBuilder content: () -> Node = { .empty }
    ) -> Node {
        .element(tag, attributes, content().children)
    }
}
