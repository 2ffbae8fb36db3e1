import DatabaseRules
import RulesTesting

/// The page `rules serve` shows at `/`: the data of a namespace, live; the recent requests with
/// each one's explanation; the rules with their coverage. Static HTML: the script
/// (``InspectorScript``) fills it from the `/.inspect/` endpoints, and the style sheet is
/// ``InspectorStyle``. Nothing is loaded from elsewhere.
enum InspectorPage {
    /// The page, with the server's default namespace in a `<meta>` element.
    static func html(defaultNamespace: String) -> String {
        template.replacingOccurrences(of: "{{defaultNamespace}}", with: JUnitReporter.escape(defaultNamespace))
    }

    static let template = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="rules-default-namespace" content="{{defaultNamespace}}">
        <title>rules serve</title>
        <link rel="stylesheet" href="/.inspect/page.css">
        <script src="/.inspect/page.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header class="top">
          <h1>rules serve</h1>
          <div class="picker">
            <label for="namespace">Database</label>
            <select id="namespace"></select>
          </div>
          <div role="tablist" aria-label="Views" class="tabs">
            <button type="button" role="tab" id="tab-data" aria-controls="view-data" aria-selected="true">Data</button>
            <button type="button" role="tab" id="tab-requests" aria-controls="view-requests" aria-selected="false" tabindex="-1">Requests <span id="denied-badge" class="badge" hidden></span> <span id="retry-badge" class="badge" hidden></span></button>
            <button type="button" role="tab" id="tab-rules" aria-controls="view-rules" aria-selected="false" tabindex="-1">Rules <span id="rules-badge" class="badge bad" hidden></span></button>
          </div>
          <p id="status" role="status" aria-live="polite"></p>
        </header>
        <main id="main">
        <section id="view-data" role="tabpanel" aria-labelledby="tab-data" tabindex="-1">
          <div class="split">
            <div class="pane">
              <form id="data-root-form" class="toolbar">
                <label for="data-root">Location</label>
                <input id="data-root" name="location" value="/" spellcheck="false" autocomplete="off">
                <button type="submit">Show</button>
                <span id="data-live" class="live" role="status" aria-live="polite">connecting…</span>
              </form>
              <ul id="data-tree" class="tree" aria-label="Data"></ul>
            </div>
            <aside id="node-detail" class="pane detail" aria-labelledby="node-title">
              <h2 id="node-title">Node</h2>
              <p class="hint">Select a key to see its path, priority and value.</p>
              <div id="node-body"></div>
            </aside>
          </div>
        </section>
        <section id="view-requests" role="tabpanel" aria-labelledby="tab-requests" tabindex="-1" hidden>
          <div class="split">
            <div class="pane">
              <form id="request-filters" class="toolbar" role="search" aria-label="Filter requests">
                <label class="check"><input type="checkbox" id="filter-denied"> Denied only</label>
                <label for="filter-path">Path</label>
                <input id="filter-path" type="search" spellcheck="false" autocomplete="off" placeholder="/posts">
                <label for="filter-user">User</label>
                <input id="filter-user" type="search" spellcheck="false" autocomplete="off" placeholder="uid">
              </form>
              <p id="requests-count" class="hint" aria-live="polite"></p>
              <table id="requests-table" class="requests">
                <caption class="visually-hidden">Recent requests, newest first</caption>
                <thead><tr>
                  <th scope="col">#</th><th scope="col">Time</th><th scope="col">Via</th><th scope="col">Method</th>
                  <th scope="col">Database</th><th scope="col">Path</th><th scope="col">Who</th><th scope="col">Verdict</th>
                  <th scope="col">Status</th><th scope="col">ms</th>
                </tr></thead>
                <tbody id="requests-body"></tbody>
              </table>
              <nav id="requests-pager" class="pager" aria-label="Request pages"></nav>
            </div>
            <section id="request-detail" class="pane detail" aria-labelledby="request-title">
              <h2 id="request-title">Request</h2>
              <p class="hint">Select a request to see why it was allowed or denied.</p>
              <div id="request-body"></div>
            </section>
          </div>
        </section>
        <section id="view-rules" role="tabpanel" aria-labelledby="tab-rules" tabindex="-1" hidden>
          <div id="rules-diagnostics"></div>
          <p id="rules-summary" class="hint"></p>
          <p class="legend" aria-hidden="true">
            <span class="cov-none">never evaluated</span> <span class="cov-true">only true</span>
            <span class="cov-false">only false</span> <span class="cov-mixed">true and false</span> <span class="cov-error">errors</span>
          </p>
          <div class="source-wrap"><table id="rules-source" class="source"><caption class="visually-hidden">Rules source with coverage</caption><tbody></tbody></table></div>
        </section>
        </main>
        </body>
        </html>

        """
}
