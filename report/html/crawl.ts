import type { EvidenceCrawl, EvidenceCrawlPage } from "../model.js";
import { escapeHtml as h } from "./escape.js";

/** A token cut for a box (the whole token is in the box's title and in the request list). */
function shortToken(token: string): string {
  return token.length > 24 ? `${token.slice(0, 11)}…${token.slice(-11)}` : token;
}

function ids(page: EvidenceCrawlPage): string {
  if (page.firstId === undefined) return "no entries";
  return page.lastId === undefined || page.lastId === page.firstId
    ? `id ${page.firstId}`
    : `ids ${page.firstId}–${page.lastId}`;
}

/** One page as a box: its step, status, entry count, edge ids, the token sent and the token given. */
function box(page: EvidenceCrawlPage): string {
  const sent = page.tokenSent === undefined ? "no token (first page)" : shortToken(page.tokenSent);
  const given = page.tokenGiven === undefined ? "none" : shortToken(page.tokenGiven);
  return [
    `<li${page.offending ? ' class="offending" aria-current="step"' : ""} data-step="${page.index}">`,
    `<span class="step">page ${page.index}</span> <span class="mono">→ ${page.status}</span>`,
    page.offending ? ` <span class="mark">✘ offending step</span>` : "",
    `<br><span class="count">${page.entries}</span> entr${page.entries === 1 ? "y" : "ies"} <small>(${h(ids(page))})</small>`,
    `<span class="tok" title="${h(page.tokenSent ?? "")}">sent: <code>${h(sent)}</code></span>`,
    `<span class="tok" title="${h(page.tokenGiven ?? "")}">gave: <code>${h(given)}</code></span>`,
    "</li>",
  ].join("");
}

/** What the picture shows, in sentences: pages, entries, where it went wrong, expected and actual. */
function summary(crawl: EvidenceCrawl): string {
  const offending = crawl.pages.find((p) => p.offending);
  const entries = crawl.pages.reduce((n, p) => n + p.entries, 0);
  return [
    `${crawl.pages.length} page${crawl.pages.length === 1 ? "" : "s"}, ${entries} entries in all.`,
    offending ? `It went wrong at page ${offending.index}.` : "",
    `Expected: ${crawl.expected}. Actual: ${crawl.actual}.`,
  ]
    .filter((s) => s !== "")
    .join(" ");
}

/** The sentence a screen reader gets for the whole picture. */
export function crawlDescription(crawl: EvidenceCrawl): string {
  return `Crawl ${crawl.label}${crawl.pageSize === undefined ? "" : ` at pageSize ${crawl.pageSize}`}: ${summary(crawl)}`;
}

/**
 * A crawl as a picture made of HTML (no image, no script): the pages as boxes in request order, each with
 * its entry count and tokens, the offending one marked in colour and in words, then what was expected
 * and what came, then the request sequence as a numbered list of the URLs sent.
 */
export function crawlPicture(crawl: EvidenceCrawl): string {
  const offending = crawl.pages.find((p) => p.offending);
  return [
    `<figure class="crawl" aria-label="${h(crawlDescription(crawl))}">`,
    `<figcaption><strong>Crawl ${h(crawl.label)}</strong>: ${h(summary(crawl))}</figcaption>`,
    `<ol aria-label="pages in request order">${crawl.pages.map(box).join("")}</ol>`,
    `<div class="expected-actual"${offending ? ` data-offending-step="${offending.index}"` : ""}>`,
    `<strong>expected</strong><span class="expected">${h(crawl.expected)}</span>`,
    `<strong>actual</strong><span class="actual">${h(crawl.actual)}</span>`,
    "</div>",
    '<details><summary>Request sequence</summary><ol class="requests">',
    ...crawl.pages.map(
      (p) =>
        `<li${p.offending ? ' class="at-fault"' : ""}><code>GET ${h(p.url)}</code> → ${p.status}, ${p.entries} entries${p.offending ? " <strong>(offending step)</strong>" : ""}</li>`,
    ),
    "</ol></details>",
    "</figure>",
  ].join("\n");
}
