import type { Evidence, Finding } from "../model.js";
import { crawlPicture } from "./crawl.js";
import { escapeHtml as h, ruleLink } from "./escape.js";

/** The request, its headers, the answer and the offending part, as a definition list. */
function exchange(evidence: Evidence): string {
  const rows: string[] = [];
  const r = evidence.request;
  if (r) {
    rows.push(
      `<dt>request${r.seq === undefined ? "" : ` #${r.seq}`}</dt><dd><code>${h(r.method)} ${h(r.url)}</code></dd>`,
    );
    const headers = Object.entries(r.headers ?? {});
    if (headers.length > 0)
      rows.push(
        `<dt>headers</dt><dd><pre>${h(headers.map(([name, value]) => `${name}: ${value}`).join("\n"))}</pre></dd>`,
      );
  }
  if (evidence.response) {
    rows.push(`<dt>response</dt><dd><code>${evidence.response.status}</code></dd>`);
    if (evidence.response.excerpt !== undefined)
      rows.push(`<dt>offending part</dt><dd><pre>${h(evidence.response.excerpt)}</pre></dd>`);
  }
  const diagnostics = evidence.diagnostics ?? [];
  if (diagnostics.length > 0)
    rows.push(`<dt>diagnostics</dt><dd><ul>${diagnostics.map((d) => `<li>${h(d)}</li>`).join("")}</ul></dd>`);
  return rows.length === 0 ? "" : `<dl>${rows.join("")}</dl>`;
}

/**
 * One case: verdict in words, id, title, the rule it enforces (a link to the rule's entry), why, and for
 * a failure its evidence unfolded (the crawl picture first) and the fix; every case's evidence as the
 * JSON report holds it, folded.
 */
export function caseHtml(item: Finding, known: ReadonlySet<string>): string {
  const failed = item.verdict === "fail" || item.verdict === "error";
  const rule = known.has(item.rule)
    ? ruleLink(item.rule, h(item.rule), known)
    : `<code>${h(item.rule)}</code>`;
  const evidence = item.evidence;
  const shown =
    evidence && failed ? [evidence.crawl ? crawlPicture(evidence.crawl) : "", exchange(evidence)] : [];
  return [
    `<article class="case" data-verdict="${item.verdict}" data-case="${h(item.id)}">`,
    `<p><span class="verdict v-${item.verdict}">${VERDICT_TEXT[item.verdict]}</span> <strong>${h(item.id)}</strong>${item.title === undefined ? "" : ` — ${h(item.title)}`}</p>`,
    `<p>rule: ${rule}. ${h(item.reason)}</p>`,
    ...shown,
    item.fix === undefined ? "" : `<p><strong>fix:</strong> ${h(item.fix)}</p>`,
    evidence && !failed
      ? `<details><summary>Evidence</summary>${evidence.crawl ? crawlPicture(evidence.crawl) : ""}${exchange(evidence)}</details>`
      : "",
    `<details><summary>As in the JSON report</summary><pre>${h(JSON.stringify(item, null, 2))}</pre></details>`,
    "</article>",
  ]
    .filter((part) => part !== "")
    .join("\n");
}

export const VERDICT_TEXT = {
  pass: "✔ pass",
  fail: "✘ FAIL",
  warn: "! warn",
  skip: "– skip",
  error: "✘ ERROR",
} as const;
