/// The page's style sheet (served at `/.inspect/page.css`): system fonts, light and dark
/// schemes, visible focus, and verdicts shown by text as well as by colour.
enum InspectorStyle {
    static let source = #"""
        :root {
          color-scheme: light dark;
          --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
          --accent: #0a58ca; --ok: #1a7f37; --bad: #c62828; --warn: #9a6700;
          --ok-bg: #dafbe1; --bad-bg: #ffebe9; --warn-bg: #fff8c5; --none-bg: #f3e8ff; --sel: #ddf4ff;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --panel: #161b22;
            --accent: #58a6ff; --ok: #3fb950; --bad: #ff7b72; --warn: #d29922;
            --ok-bg: #12361f; --bad-bg: #4a1717; --warn-bg: #3b2e05; --none-bg: #2e1f47; --sel: #1f3a5f;
          }
        }
        * { box-sizing: border-box; }
        html, body { margin: 0; background: var(--bg); color: var(--fg); }
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        code, pre, .mono, input, .tree { font-family: var(--mono); font-size: 13px; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
        .skip { position: absolute; left: -999px; top: 0; }
        .skip:focus { left: 8px; background: var(--bg); padding: 4px 8px; z-index: 2; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        [hidden] { display: none !important; }
        button { font: inherit; color: inherit; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 2px 8px; cursor: pointer; }
        button:hover { border-color: var(--accent); }
        input, select { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 2px 6px; }
        .top { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; border-bottom: 1px solid var(--line); background: var(--panel); }
        .top h1 { font-size: 16px; margin: 0; }
        .picker { display: flex; gap: 6px; align-items: center; }
        .tabs { display: flex; gap: 4px; }
        .tabs [role=tab] { border-radius: 4px 4px 0 0; padding: 4px 14px; }
        .tabs [aria-selected=true] { background: var(--bg); border-bottom-color: var(--bg); font-weight: 600; }
        #status { margin: 0 0 0 auto; color: var(--muted); min-height: 1em; }
        .badge { display: inline-block; min-width: 1.4em; padding: 0 4px; border-radius: 8px; background: var(--bad-bg); color: var(--bad); font-size: 12px; text-align: center; }
        main { padding: 12px 16px; }
        .split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; align-items: start; }
        @media (max-width: 900px) { .split { grid-template-columns: minmax(0, 1fr); } }
        .pane { min-width: 0; }
        .detail { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; background: var(--panel); position: sticky; top: 8px; max-height: calc(100vh - 24px); overflow: auto; }
        .detail h2 { font-size: 15px; margin: 4px 0 8px; }
        .detail h3 { font-size: 14px; margin: 12px 0 4px; }
        .hint { color: var(--muted); margin: 4px 0; }
        .toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-bottom: 8px; }
        .toolbar #data-root { min-width: 16em; }
        .check { display: inline-flex; gap: 4px; align-items: center; }
        .live { color: var(--muted); }
        .live.on { color: var(--ok); }
        .live.off { color: var(--bad); }
        /* Data tree */
        .tree, .tree ul { list-style: none; margin: 0; padding: 0; }
        .tree ul { padding-left: 18px; border-left: 1px dotted var(--line); margin-left: 9px; }
        .tree li { margin: 1px 0; }
        .row { display: flex; align-items: baseline; gap: 4px; white-space: nowrap; }
        .toggle { width: 1.6em; padding: 0; border: none; background: none; color: var(--muted); }
        .toggle-space { display: inline-block; width: 1.6em; }
        .key { border: none; background: none; padding: 0 2px; color: var(--accent); }
        .key[aria-current=true] { background: var(--sel); outline: 1px solid var(--accent); }
        .value { overflow: hidden; text-overflow: ellipsis; }
        .v-string { color: var(--ok); }
        .v-number { color: var(--accent); }
        .v-boolean { color: var(--warn); }
        .count { color: var(--muted); }
        .changed > .row { animation: flash 1.2s ease-out; }
        @keyframes flash { from { background: var(--warn-bg); } to { background: transparent; } }
        .pager { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 4px 0; color: var(--muted); }
        dl.props { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0; }
        dl.props dt { color: var(--muted); }
        dl.props dd { margin: 0; overflow-wrap: anywhere; }
        pre.json { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 6px; max-height: 40vh; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
        /* Requests */
        table.requests { border-collapse: collapse; width: 100%; }
        table.requests th, table.requests td { text-align: left; padding: 2px 6px; border-bottom: 1px solid var(--line); white-space: nowrap; }
        table.requests td.path { max-width: 18em; overflow: hidden; text-overflow: ellipsis; }
        table.requests tbody tr:hover { background: var(--panel); }
        table.requests tr[aria-selected=true] { background: var(--sel); }
        .link { border: none; background: none; padding: 0; color: var(--accent); text-decoration: underline; font-family: var(--mono); }
        .verdict { font-weight: 600; }
        .verdict-allowed { color: var(--ok); }
        .verdict-denied { color: var(--bad); }
        .verdict-error { color: var(--warn); }
        .verdict-stale { color: var(--accent); }
        .reason { font-family: var(--mono); font-size: 12px; background: var(--bg); border-left: 3px solid var(--bad); padding: 4px 8px; overflow-wrap: anywhere; }
        .decision { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 6px; padding: 6px 10px; margin: 8px 0; }
        .decision.allowed { border-color: var(--ok); background: var(--ok-bg); }
        ol.evaluations { padding-left: 0; list-style: none; margin: 0; }
        ol.evaluations > li { border: 1px solid var(--line); border-radius: 4px; padding: 4px 8px; margin: 4px 0; background: var(--bg); }
        ol.evaluations > li.decisive { border: 2px solid var(--bad); }
        ol.evaluations > li.decisive.allowed { border-color: var(--ok); }
        .tag { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 5px; border-radius: 3px; background: var(--panel); border: 1px solid var(--line); }
        .tag.decisive { background: var(--bad); color: #fff; border-color: var(--bad); }
        .tag.decisive.allowed { background: var(--ok); border-color: var(--ok); }
        .result-true { color: var(--ok); font-weight: 600; }
        .result-false { color: var(--bad); font-weight: 600; }
        .result-error { color: var(--warn); font-weight: 600; }
        table.values { border-collapse: collapse; width: 100%; font-family: var(--mono); font-size: 12px; }
        table.values td, table.values th { border-top: 1px solid var(--line); padding: 1px 4px; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
        table.values tr.false-part { background: var(--bad-bg); }
        .false-part-text { background: var(--bad-bg); border: 1px solid var(--bad); border-radius: 3px; padding: 0 3px; }
        /* Rules source */
        .source-wrap { overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
        table.source { border-collapse: collapse; width: 100%; font-family: var(--mono); font-size: 12.5px; }
        table.source td { padding: 0 8px; vertical-align: top; white-space: pre; }
        /* Long rules lines wrap (keeping their indentation) instead of being cut by the pane. */
        table.source td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
        table.source td.ln { color: var(--muted); text-align: right; user-select: none; width: 1%; }
        table.source td.hits { color: var(--muted); width: 1%; font-size: 11px; }
        table.source tr.target td { outline: 2px solid var(--accent); outline-offset: -2px; }
        table.source tr.decisive td.code { font-weight: 600; }
        table.source tr.decisive td.ln::before { content: "▶ "; color: var(--bad); }
        table.source tr.diagnostic td.code { text-decoration: underline wavy var(--bad); }
        .cov-none { background: var(--none-bg); }
        .cov-true { background: var(--ok-bg); }
        .cov-false { background: var(--bad-bg); }
        .cov-mixed { background: linear-gradient(90deg, var(--ok-bg), var(--bad-bg)); }
        .cov-error { background: var(--warn-bg); }
        .legend span { padding: 0 6px; border-radius: 3px; font-size: 12px; }
        .diagnostics { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 6px; padding: 6px 10px; margin-bottom: 8px; }
        .diagnostics ul { margin: 4px 0; padding-left: 18px; font-family: var(--mono); font-size: 12px; }
        """#
}
