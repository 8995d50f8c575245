import type { Route } from "../../contracts/index.js";
import type { CrawlResult } from "./crawler.js";
import type { Evidence } from "./types.js";

/**
 * Why a crawl stopped. `empty-page` and `no-token` are legal ends; the others are violations, each
 * owned by one rule (see `stopRule`).
 */
export type CrawlStop =
  | { kind: "empty-page" }
  | { kind: "no-token" }
  | { kind: "first-page-refused"; evidence: Evidence }
  | { kind: "not-a-list"; reason: string; evidence: Evidence }
  | { kind: "token-refused"; evidence: Evidence }
  | { kind: "token-ignored"; evidence: Evidence }
  | { kind: "never-ends"; reason: string; evidence: Evidence }
  | { kind: "aborted" };

/** True when the crawl reached a legal end. */
export function endedLegally(stop: CrawlStop): boolean {
  return stop.kind === "empty-page" || stop.kind === "no-token";
}

/**
 * The one rule that owns each way a crawl can go wrong, so a provider's fault is blamed on its rule and
 * the other checks that needed the crawl skip with a pointer instead of failing too.
 */
export function stopRule(stop: CrawlStop, route: Route): string | undefined {
  switch (stop.kind) {
    case "empty-page":
    case "no-token":
    case "aborted":
      return undefined;
    case "first-page-refused":
      return route.version === "v3" ? "versions.v3-served-before-switch-off" : "versions.v5-unaffected";
    case "not-a-list":
      return "pagination.result-array";
    case "token-refused":
    case "token-ignored":
      return "pagination.token-echoed";
    case "never-ends":
      return "pagination.end-is-empty-array";
  }
}

/** A sentence for a crawl that did not end legally: what happened and which rule's check reports it. */
export function describeStop(result: CrawlResult): string {
  const stop = result.stop;
  const owner = stopRule(stop, result.route);
  const see = owner ? ` (see ${owner})` : "";
  switch (stop.kind) {
    case "empty-page":
      return `ended on an empty page after ${result.pages} pages and ${result.entries} entries`;
    case "no-token":
      return `ended on a non-empty page without a token after ${result.pages} pages and ${result.entries} entries`;
    case "aborted":
      return "the run was interrupted";
    case "first-page-refused":
      return `the first page was refused with ${stop.evidence.response?.status ?? "?"}${see}`;
    case "not-a-list":
      return `${stop.reason}${see}`;
    case "token-refused":
      return `a continuation token sent back as received was refused with ${stop.evidence.response?.status ?? "?"} on page ${result.pages}${see}`;
    case "token-ignored":
      return `the first continuation token led back to the first page${see}`;
    case "never-ends":
      return `${stop.reason}${see}`;
  }
}
