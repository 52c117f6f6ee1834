/// One attribute of an element: a code-controlled name and an escaped value.
///
/// Names are `StaticString`s (written in code, never taken from input). Values are escaped on
/// render (`& < > " '` → `&amp; &lt; &gt; &quot; &#39;`) and always double-quoted, so a value
/// cannot end the attribute or the tag. URL-valued attributes (``href(_:)``, ``src(_:)``,
/// ``action(_:)``, ``formaction(_:)``) additionally replace `javascript:` and `vbscript:` URLs
/// with `about:invalid` (browsers ignore ASCII whitespace and control characters in a scheme, so
/// the check does too).
///
/// Boolean attributes (``disabled``, ``checked``, …) render bare when on (`<input disabled>`) and
/// not at all when off, per the HTML Living Standard §2.3.2.
public struct Attribute: Sendable {
    /// The value of an attribute.
    public enum Value: Sendable {
        /// A string value, escaped when rendered: `name="value"`.
        case string(String)
        /// A boolean attribute: present (`name`) when `true`, omitted when `false`.
        case boolean(Bool)
    }

    /// A fixed name prefix (`""`, `"data-"` or `"aria-"`), written before ``name``.
    public let prefix: StaticString
    /// The attribute name (after ``prefix``), e.g. `"class"` or `"product-id"` for `data-product-id`.
    public let name: StaticString
    /// The value.
    public let value: Value

    init(prefix: StaticString = "", _ name: StaticString, _ value: Value) {
        assert(Attribute.isValidName(name), "invalid or inline-script attribute name: \(name)")
        self.prefix = prefix
        self.name = name
        self.value = value
    }

    /// Any attribute with a string value, for names without a dedicated function.
    ///
    /// Event-handler attributes (`on…`) are refused in debug builds: inline scripts are blocked by
    /// the site's Content-Security-Policy anyway.
    /// - Parameters:
    ///   - name: the attribute name, lower-case ASCII letters, digits and `-`.
    ///   - value: the value, escaped on render.
    public static func attribute(_ name: StaticString, _ value: String) -> Attribute {
        Attribute(name, .string(value))
    }

    /// Any boolean attribute: rendered bare when `isOn`, omitted otherwise.
    public static func boolean(_ name: StaticString, _ isOn: Bool = true) -> Attribute {
        Attribute(name, .boolean(isOn))
    }

    /// `data-<name>="value"`; `name` is written without the `data-` prefix.
    ///
    /// ```swift
    /// .data("product-id", "12")   // data-product-id="12"
    /// ```
    public static func data(_ name: StaticString, _ value: String) -> Attribute {
        Attribute(prefix: "data-", name, .string(value))
    }

    /// `aria-<name>="value"`; `name` is written without the `aria-` prefix.
    ///
    /// ```swift
    /// .aria("label", "Add to favorites")   // aria-label="Add to favorites"
    /// ```
    public static func aria(_ name: StaticString, _ value: String) -> Attribute {
        Attribute(prefix: "aria-", name, .string(value))
    }

    /// Lower-case ASCII letters, digits, `-`, `_` and `:`, not starting with `on`.
    static func isValidName(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { bytes in
            if bytes.count >= 2, bytes[0] == UInt8(ascii: "o"), bytes[1] == UInt8(ascii: "n") { return false }
            return !bytes.isEmpty && bytes.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            }
        }
    }
}

// MARK: - Common attributes

extension Attribute {
    /// `class="…"`: space-separated CSS class names.
    public static func `class`(_ value: String) -> Attribute { Attribute("class", .string(value)) }
    /// `id="…"`.
    public static func id(_ value: String) -> Attribute { Attribute("id", .string(value)) }
    /// `href="…"`; `javascript:`/`vbscript:` URLs become `about:invalid`.
    public static func href(_ url: String) -> Attribute { Attribute("href", .string(safeURL(url))) }
    /// `src="…"`; `javascript:`/`vbscript:` URLs become `about:invalid`.
    public static func src(_ url: String) -> Attribute { Attribute("src", .string(safeURL(url))) }
    /// `srcset="…"` (image candidates, e.g. `"a.svg 1x, a@2x.png 2x"`).
    public static func srcset(_ value: String) -> Attribute { Attribute("srcset", .string(value)) }
    /// `sizes="…"` (media conditions with image widths).
    public static func sizes(_ value: String) -> Attribute { Attribute("sizes", .string(value)) }
    /// `media="…"` (a media query, for `<source>` and `<link>`).
    public static func media(_ value: String) -> Attribute { Attribute("media", .string(value)) }
    /// `alt="…"`: the text alternative of an image (empty for decorative images).
    public static func alt(_ value: String) -> Attribute { Attribute("alt", .string(value)) }
    /// `type="…"` (input type, button type, MIME type).
    public static func type(_ value: String) -> Attribute { Attribute("type", .string(value)) }
    /// `name="…"` (form control name, or `<meta name>`).
    public static func name(_ value: String) -> Attribute { Attribute("name", .string(value)) }
    /// `value="…"`.
    public static func value(_ value: String) -> Attribute { Attribute("value", .string(value)) }
    /// `value="…"` from an integer.
    public static func value(_ value: Int) -> Attribute { Attribute("value", .string(String(value))) }
    /// `action="…"` (form target URL); `javascript:`/`vbscript:` URLs become `about:invalid`.
    public static func action(_ url: String) -> Attribute { Attribute("action", .string(safeURL(url))) }
    /// `formaction="…"` (button target URL); `javascript:`/`vbscript:` URLs become `about:invalid`.
    public static func formaction(_ url: String) -> Attribute { Attribute("formaction", .string(safeURL(url))) }
    /// `method="…"`: `"get"` or `"post"` (HTML forms know no other methods).
    public static func method(_ value: String) -> Attribute { Attribute("method", .string(value)) }
    /// `enctype="…"`, e.g. `"multipart/form-data"`.
    public static func enctype(_ value: String) -> Attribute { Attribute("enctype", .string(value)) }
    /// `for="…"`: the id of the control a `<label>` or `<output>` belongs to.
    public static func `for`(_ value: String) -> Attribute { Attribute("for", .string(value)) }
    /// `form="…"`: the id of the form a control belongs to.
    public static func form(_ value: String) -> Attribute { Attribute("form", .string(value)) }
    /// `rel="…"`, e.g. `"stylesheet"`, `"noopener"`.
    public static func rel(_ value: String) -> Attribute { Attribute("rel", .string(value)) }
    /// `title="…"` (advisory text, a tooltip).
    public static func title(_ value: String) -> Attribute { Attribute("title", .string(value)) }
    /// `role="…"` (ARIA role).
    public static func role(_ value: String) -> Attribute { Attribute("role", .string(value)) }
    /// `width="…"` in CSS pixels.
    public static func width(_ pixels: Int) -> Attribute { Attribute("width", .string(String(pixels))) }
    /// `height="…"` in CSS pixels.
    public static func height(_ pixels: Int) -> Attribute { Attribute("height", .string(String(pixels))) }
    /// `loading="…"`: `"lazy"` or `"eager"`.
    public static func loading(_ value: String) -> Attribute { Attribute("loading", .string(value)) }
    /// `decoding="…"`: `"async"`, `"sync"` or `"auto"`.
    public static func decoding(_ value: String) -> Attribute { Attribute("decoding", .string(value)) }
    /// `min="…"`.
    public static func min(_ value: String) -> Attribute { Attribute("min", .string(value)) }
    /// `min="…"` from an integer.
    public static func min(_ value: Int) -> Attribute { Attribute("min", .string(String(value))) }
    /// `max="…"`.
    public static func max(_ value: String) -> Attribute { Attribute("max", .string(value)) }
    /// `max="…"` from an integer.
    public static func max(_ value: Int) -> Attribute { Attribute("max", .string(String(value))) }
    /// `step="…"` (a number or `"any"`).
    public static func step(_ value: String) -> Attribute { Attribute("step", .string(value)) }
    /// `minlength="…"` in characters.
    public static func minlength(_ value: Int) -> Attribute { Attribute("minlength", .string(String(value))) }
    /// `maxlength="…"` in characters.
    public static func maxlength(_ value: Int) -> Attribute { Attribute("maxlength", .string(String(value))) }
    /// `rows="…"` (textarea lines).
    public static func rows(_ value: Int) -> Attribute { Attribute("rows", .string(String(value))) }
    /// `colspan="…"`.
    public static func colspan(_ value: Int) -> Attribute { Attribute("colspan", .string(String(value))) }
    /// `scope="…"` for `<th>`: `"row"`, `"col"`, …
    public static func scope(_ value: String) -> Attribute { Attribute("scope", .string(value)) }
    /// `tabindex="…"`.
    public static func tabindex(_ value: Int) -> Attribute { Attribute("tabindex", .string(String(value))) }
    /// `inputmode="…"`, e.g. `"numeric"`, `"email"`.
    public static func inputmode(_ value: String) -> Attribute { Attribute("inputmode", .string(value)) }
    /// `enterkeyhint="…"`, e.g. `"search"`.
    public static func enterkeyhint(_ value: String) -> Attribute { Attribute("enterkeyhint", .string(value)) }
    /// `autocomplete="…"`, e.g. `"email"`, `"current-password"`, `"off"`.
    public static func autocomplete(_ value: String) -> Attribute { Attribute("autocomplete", .string(value)) }
    /// `placeholder="…"`.
    public static func placeholder(_ value: String) -> Attribute { Attribute("placeholder", .string(value)) }
    /// `pattern="…"` (a regular expression the whole value must match).
    public static func pattern(_ value: String) -> Attribute { Attribute("pattern", .string(value)) }
    /// `accept="…"` (file input MIME types).
    public static func accept(_ value: String) -> Attribute { Attribute("accept", .string(value)) }
    /// `content="…"` (for `<meta>`).
    public static func content(_ value: String) -> Attribute { Attribute("content", .string(value)) }
    /// `http-equiv="…"` (for `<meta>`).
    public static func httpEquiv(_ value: String) -> Attribute { Attribute("http-equiv", .string(value)) }
    /// `charset="…"` (for `<meta>`; use `"utf-8"`).
    public static func charset(_ value: String) -> Attribute { Attribute("charset", .string(value)) }
    /// `lang="…"`: a BCP 47 language tag, e.g. `"en"`, `"tr"`.
    public static func lang(_ value: String) -> Attribute { Attribute("lang", .string(value)) }
    /// `datetime="…"` (for `<time>`, `<del>`, `<ins>`; e.g. an ISO 8601 date).
    public static func datetime(_ value: String) -> Attribute { Attribute("datetime", .string(value)) }
    /// `target="…"`, e.g. `"_blank"`.
    public static func target(_ value: String) -> Attribute { Attribute("target", .string(value)) }
    /// `integrity="…"` (subresource integrity hash).
    public static func integrity(_ value: String) -> Attribute { Attribute("integrity", .string(value)) }
    /// `crossorigin="…"`.
    public static func crossorigin(_ value: String) -> Attribute { Attribute("crossorigin", .string(value)) }
}

// MARK: - Boolean attributes

extension Attribute {
    /// `disabled`.
    public static let disabled = boolean("disabled")
    /// `disabled` when `isOn`, nothing otherwise.
    public static func disabled(_ isOn: Bool) -> Attribute { boolean("disabled", isOn) }
    /// `checked`.
    public static let checked = boolean("checked")
    /// `checked` when `isOn`, nothing otherwise.
    public static func checked(_ isOn: Bool) -> Attribute { boolean("checked", isOn) }
    /// `selected`.
    public static let selected = boolean("selected")
    /// `selected` when `isOn`, nothing otherwise.
    public static func selected(_ isOn: Bool) -> Attribute { boolean("selected", isOn) }
    /// `hidden`.
    public static let hidden = boolean("hidden")
    /// `hidden` when `isOn`, nothing otherwise.
    public static func hidden(_ isOn: Bool) -> Attribute { boolean("hidden", isOn) }
    /// `required`.
    public static let required = boolean("required")
    /// `required` when `isOn`, nothing otherwise.
    public static func required(_ isOn: Bool) -> Attribute { boolean("required", isOn) }
    /// `readonly`.
    public static let readonly = boolean("readonly")
    /// `multiple`.
    public static let multiple = boolean("multiple")
    /// `autofocus`.
    public static let autofocus = boolean("autofocus")
    /// `novalidate` (for `<form>`).
    public static let novalidate = boolean("novalidate")
    /// `open` (for `<details>` and `<dialog>`).
    public static let open = boolean("open")
    /// `open` when `isOn`, nothing otherwise.
    public static func open(_ isOn: Bool) -> Attribute { boolean("open", isOn) }
    /// `defer` (for `<script src>`: run after parsing).
    public static let `defer` = boolean("defer")
    /// `async` (for `<script src>`).
    public static let async = boolean("async")
}

// MARK: - URL safety

extension Attribute {
    /// Replaces URLs whose scheme is `javascript` or `vbscript` with `about:invalid`.
    ///
    /// Browsers strip leading C0 controls and spaces and drop tabs/newlines inside a URL
    /// (WHATWG URL Standard, "basic URL parser"), so those are skipped when reading the scheme.
    static func safeURL(_ url: String) -> String {
        // Fast path: site-relative URLs, fragments and queries have no scheme.
        if let first = url.utf8.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "#")
            || first == UInt8(ascii: "?") {
            return url
        }
        // The scheme's letters, 5 bits each (a = 1 … z = 26); 10 letters fit in 50 bits.
        var packed: UInt64 = 0
        var count = 0
        for byte in url.utf8 {
            if byte <= 0x20 { continue }
            if byte == UInt8(ascii: ":") {
                return packed == javascript || packed == vbscript ? "about:invalid" : url
            }
            let lower = byte | 0x20
            guard (0x61...0x7A).contains(lower), count < 10 else { return url }
            packed = packed << 5 | UInt64(lower - 0x60)
            count += 1
        }
        return url
    }

    private static let javascript = pack("javascript")
    private static let vbscript = pack("vbscript")

    private static func pack(_ word: StaticString) -> UInt64 {
        word.withUTF8Buffer { $0.reduce(0) { $0 << 5 | UInt64($1 - 0x60) } }
    }
}
