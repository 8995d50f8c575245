import { malformedDeprecationHeaders } from "../../contracts/index.js";
import { readerGet } from "../runner/context.js";
import type { HttpExchange } from "../runner/http.js";
import { evidenceOf } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";
import { combine, failOn, passOn, type SubjectFinding, specCheck } from "../runner/verdicts.js";

export const DEPRECATION_HEADERS_RULE = "versions.deprecation-headers";

/**
 * What breaks `versions.deprecation-headers` in one answer (its malformed `Deprecation` or `Sunset`,
 * the two headers as evidence), or undefined: verify's check, `verify --cassette` and lint judge by it.
 */
export function deprecationHeadersBreach(
  exchange: HttpExchange,
): { reason: string; evidence: Evidence } | undefined {
  const wrong = malformedDeprecationHeaders((name) => exchange.headers.get(name) ?? undefined);
  if (wrong.length === 0) return undefined;
  const sent = Object.fromEntries(
    ["deprecation", "sunset"].map((name) => [name, exchange.headers.get(name)]),
  );
  return { reason: wrong.join("; "), evidence: evidenceOf(exchange, sent, wrong) };
}

/**
 * The dated changes announced on the wire: where the first page of a listing served at the date carries
 * `Deprecation` or `Sunset`, each is in its RFC's form. Answers without them pass (the service sends
 * none); the listings are the routes the timeline's changes affect.
 */
export const deprecationHeadersCheck = specCheck({
  id: "versions/deprecation-headers",
  rule: DEPRECATION_HEADERS_RULE,
  title: "Deprecation and Sunset, where sent, are in the form RFC 9745 and RFC 8594 require",
  async run(ctx) {
    const findings: SubjectFinding[] = [];
    for (const route of ctx.servedListings()) {
      const exchange = await readerGet(ctx, await ctx.urlOf(route));
      const breach = deprecationHeadersBreach(exchange);
      const sent = ["Deprecation", "Sunset"].filter((name) => exchange.headers.has(name));
      findings.push(
        breach
          ? failOn(route.id, breach.reason, breach.evidence)
          : passOn(route.id, `${route.id}: ${sent.join(", ") || "no announcement"}`),
      );
    }
    return combine(findings, "listing answers' Deprecation and Sunset");
  },
});
