import RulesSyntax

/// The page `rules serve` shows at `/`: the data of a namespace, live; the recent requests with
/// each one's explanation; the rules with their coverage. Three files beside this one, compiled
/// into the binary as package resources: `page.html` (static HTML with the server's default
/// namespace in a `<meta>` element), `page.js` (fills it from the `/.inspect/` endpoints) and
/// `page.css`. Nothing is loaded from elsewhere.
enum InspectorPage {
    /// The page, with the server's default namespace in its `<meta>` element.
    static func html(defaultNamespace: String) -> String {
        template.replacingOccurrences(of: "{{defaultNamespace}}", with: MarkupText.escaped(defaultNamespace))
    }

    /// `page.html`.
    static let template = String(decoding: PackageResources.page_html, as: UTF8.self)
    /// `page.js`, served at `/.inspect/page.js`.
    static let script = String(decoding: PackageResources.page_js, as: UTF8.self)
    /// `page.css`, served at `/.inspect/page.css`: system fonts, light and dark schemes,
    /// visible focus, and verdicts shown by text as well as by colour.
    static let style = String(decoding: PackageResources.page_css, as: UTF8.self)
}
