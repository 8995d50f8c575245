import type { Diagnostic } from "../../contracts/index.js";
import { evidenceOf } from "../runner/excerpt.js";
import type { HttpExchange } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";

/** The rule every schema sentence belongs to unless another rule owns it. */
export const SCHEMA_RULE = "schema.responses";

/** The public form's lists of custom fields, options and tiers: their presence is that rule's. */
export const PUBLIC_FORM_RULE = "public-form.custom-fields-and-options";

/** The answers of custom fields (a File answer is the file's URL): the order detail's files rule. */
export const FILES_RULE = "rights.order-detail-exposes-files";

/**
 * The rule that owns a schema sentence, by the path of its diagnostic: verify's schema check leaves
 * the others' sentences to their own checks, and a rerun blames each sentence on its owner.
 *
 * @example ownerOfSentence("response.tiers[0].customFields") // "public-form.custom-fields-and-options"
 */
export function ownerOfSentence(path: string): string {
  if (/^response\.(customFields|extraOptions|tiers)$/.test(path)) return PUBLIC_FORM_RULE;
  if (/^response\.tiers\[\d+\]\.(customFields|extraOptions)$/.test(path)) return PUBLIC_FORM_RULE;
  if (/customFields\[\d+\]\.answer$/.test(path)) return FILES_RULE;
  return SCHEMA_RULE;
}

/** How an answer that breaks a schema is reported: the first sentence, and the first 8 as evidence. */
export function schemaBreach(
  exchange: HttpExchange,
  schema: string,
  found: readonly Diagnostic[],
): { reason: string; evidence: Evidence } {
  return {
    reason: `does not validate against "${schema}": ${found[0]?.message ?? ""}`,
    evidence: evidenceOf(
      exchange,
      undefined,
      found.slice(0, 8).map((d) => d.message),
    ),
  };
}
