/**
 * The report's one style sheet, inlined: system fonts only (no font file, no CDN), colours that are never
 * the only signal (every verdict is also a word and a mark), a print style that unfolds every folded
 * section and keeps boxes whole.
 */
export const STYLE = `
:root { --pass: #1a7f37; --fail: #c62828; --warn: #9a6700; --skip: #6e7781; --error: #8b1a1a;
  --nif: #57606a; --line: #d0d7de; --soft: #f6f8fa; --ink: #1f2328; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  margin: 0 auto; max-width: 78rem; padding: 1rem 1.5rem 3rem; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
pre { background: var(--soft); border: 1px solid var(--line); padding: .5rem; overflow-x: auto;
  white-space: pre-wrap; word-break: break-all; }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
a { color: #0550ae; }
a:focus, summary:focus { outline: 3px solid #0969da; outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; } .skip-link:focus { left: 1rem; top: 1rem; background: #fff; }
.verdict { font-weight: 600; white-space: nowrap; }
.v-pass { color: var(--pass); } .v-fail { color: var(--fail); } .v-warn { color: var(--warn); }
.v-skip { color: var(--skip); } .v-error { color: var(--error); } .v-not-in-force { color: var(--nif); }
.banner { border: 2px solid; padding: .5rem 1rem; border-radius: 6px; margin: 1rem 0; }
.banner.v-pass { border-color: var(--pass); } .banner.v-fail { border-color: var(--fail); }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: var(--soft); }
.matrix td { text-align: center; white-space: nowrap; }
.matrix td.c-fail, .matrix td.c-error { background: #ffebe9; }
.matrix td.c-warn { background: #fff8c5; } .matrix td.c-pass { background: #dafbe1; }
.matrix td.c-not-in-force { background: repeating-linear-gradient(45deg, #fff, #fff 4px, #eaeef2 4px, #eaeef2 8px); }
.matrix th.failing { border-bottom: 4px solid var(--fail); }
.matrix th small { display: block; font-weight: normal; color: var(--nif); max-width: 9rem; white-space: normal; }
.case { border-top: 1px solid var(--line); padding: .5rem 0; }
.case > p { margin: .25rem 0; }
details { margin: .25rem 0; } summary { cursor: pointer; }
.crawl ol { list-style: none; display: flex; flex-wrap: wrap; gap: 1.6rem; padding: 0; margin: .5rem 0; }
.crawl li { position: relative; border: 2px solid var(--line); border-radius: 6px; padding: .35rem .5rem;
  min-width: 9rem; max-width: 16rem; background: #fff; break-inside: avoid; }
.crawl li + li::before { content: "→"; position: absolute; left: -1.35rem; top: 40%; color: var(--nif); }
.crawl li.offending { border: 3px solid var(--fail); background: #ffebe9; }
.crawl .step { font-weight: 600; } .crawl .count { font-size: 1.3rem; font-weight: 700; }
.crawl .tok { display: block; font-size: 12px; overflow-wrap: anywhere; }
.crawl .mark { color: var(--fail); font-weight: 700; }
.expected-actual { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; }
.traffic li { margin: .1rem 0; } .traffic .at-fault { color: var(--fail); font-weight: 600; }
@media print {
  details > summary { list-style: none; } details:not([open]) > *:not(summary) { display: block; }
  .skip-link { display: none; } a { color: inherit; text-decoration: none; }
  body { max-width: none; padding: 0; } .case, li, tr { break-inside: avoid; }
}
`;
