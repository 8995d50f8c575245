import { writeJson } from "../json.js";
import { casesOf, type Report, type ReportSuite, summarize, type Verdict } from "../model.js";
import { anchorOf, escapeHtml as h, ruleLink } from "./escape.js";
import { caseHtml, VERDICT_TEXT } from "./evidence.js";
import { matrixTable } from "./matrix.js";
import { STYLE } from "./style.js";

/**
 * No request leaves the page: nothing but the inline style and the one inline script may load, so a
 * report opened from a mail or a CI artefact cannot call home, whatever a provider put in its answers.
 */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** The one script, an enhancement only: printing unfolds every folded section. */
const PRINT_SCRIPT =
  'addEventListener("beforeprint",function(){document.querySelectorAll("details").forEach(function(d){d.open=true})});';

const ORDER: readonly Verdict[] = ["fail", "error", "warn", "skip", "pass"];

function summaryTable(report: Report): string {
  const counts = summarize(report.suites);
  return [
    '<table class="summary"><caption>Cases by verdict</caption><thead><tr><th scope="col">verdict</th><th scope="col">cases</th></tr></thead><tbody>',
    ...ORDER.map(
      (v) => `<tr><th scope="row" class="verdict v-${v}">${VERDICT_TEXT[v]}</th><td>${counts[v]}</td></tr>`,
    ),
    "</tbody></table>",
  ].join("\n");
}

/**
 * A suite's traffic as a timeline: every request in order with its answer, the ones a failure points at
 * marked in words; open when the suite has a failure.
 */
function trafficTimeline(suite: ReportSuite): string {
  const traffic = suite.traffic ?? [];
  if (traffic.length === 0) return "";
  const faulty = new Set(
    suite.cases
      .filter((c) => c.verdict === "fail" || c.verdict === "error")
      .map((c) => c.evidence?.request?.seq)
      .filter((seq) => seq !== undefined),
  );
  const steps = traffic.map((step) => {
    const fault = faulty.has(step.seq);
    return `<li value="${step.seq}"${fault ? ' class="at-fault" data-at-fault="true"' : ""}><code>${h(step.method)} ${h(step.url)}</code> → ${step.status ?? "no answer"}${step.note === undefined ? "" : ` · ${h(step.note)}`}${fault ? " <strong>(a failure points here)</strong>" : ""}</li>`;
  });
  return `<details class="traffic"${faulty.size > 0 ? " open" : ""}><summary>Traffic: ${traffic.length} request${traffic.length === 1 ? "" : "s"} in order</summary><ol>${steps.join("\n")}</ol></details>`;
}

function suiteSection(suite: ReportSuite, index: number, known: ReadonlySet<string>): string {
  const properties = Object.entries(suite.properties);
  const rows = suite.cases.map(
    (item) =>
      `<tr data-verdict="${item.verdict}"><td class="verdict v-${item.verdict}">${VERDICT_TEXT[item.verdict]}</td><td><code>${h(item.id)}</code></td><td>${ruleLink(item.rule, h(item.rule), known)}</td><td>${h(item.reason)}</td></tr>`,
  );
  return [
    `<section class="suite" aria-labelledby="suite-${index}"><h3 id="suite-${index}">${h(suite.name)}</h3>`,
    ...(suite.heading ?? []).map((line) => `<p>${h(line.trim())}</p>`),
    properties.length === 0
      ? ""
      : `<p class="mono">${properties.map(([k, v]) => `${h(k)}: ${h(v)}`).join(" · ")}</p>`,
    trafficTimeline(suite),
    `<table><thead><tr><th scope="col">verdict</th><th scope="col">case</th><th scope="col">rule</th><th scope="col">why</th></tr></thead><tbody>${rows.join("\n")}</tbody></table>`,
    suite.notes.length === 0
      ? ""
      : `<ul class="notes">${suite.notes.map((n) => `<li>${h(n)}</li>`).join("")}</ul>`,
    "</section>",
  ]
    .filter((part) => part !== "")
    .join("\n");
}

function rulesSection(report: Report): string {
  const rules = report.rules ?? [];
  if (rules.length === 0) return "";
  const used = new Set(casesOf(report).map(({ item }) => item.rule));
  return [
    '<section aria-labelledby="h-rules"><h2 id="h-rules">Rules and the seed sections they enforce</h2><dl class="rules">',
    ...rules
      .filter((rule) => used.has(rule.id))
      .map(
        (rule) =>
          `<dt id="${anchorOf("rule", rule.id)}"><code>${h(rule.id)}</code></dt><dd>seed: <cite>${h(rule.seed)}</cite>. ${h(rule.summary)}</dd>`,
      ),
    "</dl></section>",
  ].join("\n");
}

/**
 * The HTML report: one self-contained file (inline style, system fonts, no image, no external request:
 * its Content-Security-Policy forbids them). The summary, the timeline matrix when there is one, each
 * failure and warning with its evidence (a failing crawl drawn page by page), every suite as a table,
 * the rules with their seed sections, and the whole JSON report folded. It reads without JavaScript and
 * without colour, prints unfolded, and uses headings, table headers and text for every picture.
 *
 * @example
 * writeHtml(report, { outcomes }); // "<!DOCTYPE html>…"
 */
export function writeHtml(report: Report, details: Readonly<Record<string, unknown>> = {}): string {
  const known = new Set((report.rules ?? []).map((r) => r.id));
  const noticed = casesOf(report).filter(({ item }) => ["fail", "error", "warn"].includes(item.verdict));
  const verdict = report.passed ? "pass" : "fail";
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="generator" content="assopay">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${h(report.name)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    '<a class="skip-link" href="#failures">Skip to the failures</a>',
    `<header><h1>${h(report.header)}</h1>`,
    `<p class="banner v-${verdict}" role="status"><strong>${report.passed ? "✔ PASSED" : "✘ FAILED"}</strong>: ${h(report.result)}</p>`,
    summaryTable(report),
    "</header><main>",
    report.matrix
      ? `<section aria-labelledby="h-matrix"><h2 id="h-matrix">Across the timeline</h2>\n${matrixTable(report.matrix, known)}</section>`
      : "",
    `<section id="failures" aria-labelledby="h-failures"><h2 id="h-failures">Failures and warnings (${noticed.length})</h2>`,
    noticed.length === 0 ? "<p>None.</p>" : "",
    ...noticed.map(({ suite, item }) => `<h3>${h(suite.name)}</h3>\n${caseHtml(item, known)}`),
    "</section>",
    '<section aria-labelledby="h-suites"><h2 id="h-suites">Every case</h2>',
    ...report.suites.map((suite, i) => suiteSection(suite, i, known)),
    "</section>",
    rulesSection(report),
    '<section aria-labelledby="h-json"><h2 id="h-json">The JSON report</h2>',
    `<details><summary>Every piece of evidence, as <code>--reporter json</code> writes it</summary><pre>${h(writeJson(report, details))}</pre></details>`,
    "</section></main>",
    `<script>${PRINT_SCRIPT}</script>`,
    "</body></html>",
    "",
  ]
    .filter((part) => part !== "")
    .join("\n");
}
