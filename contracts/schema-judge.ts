/**
 * The one judge of an answer's schema: the contract's sentences on a body, grouped by the rule that owns
 * each. verify's schema checks and crawls, `verify --cassette` and lint all judge answers here.
 */
import { documentNoted } from "./document-allows.js";
import { countRule, describeExpected, isCountSentence } from "./paging/counts.js";
import type { Diagnostic, ExpectedCounts, Route, RuleBreach, SchemaRegistry } from "./types.js";

/** The rule every schema sentence belongs to unless another rule owns it. */
export const SCHEMA_RULE = "schema.responses";

/** The public form's lists of custom fields, options and tiers: their presence is that rule's. */
export const PUBLIC_FORM_RULE = "public-form.custom-fields-and-options";

/** The answers of custom fields (a File answer is the file's URL): the order detail's files rule. */
export const FILES_RULE = "rights.order-detail-exposes-files";

/** A listing's result array itself: there, a list, is that rule's. */
export const RESULT_ARRAY_RULE = "pagination.result-array";

/**
 * The rule that owns a schema sentence of `route`'s answer, by the path of its diagnostic: on a page,
 * the result array and, where `expected` counts are judged, the counts have rules of their own; on a
 * resource, the public form's lists and the custom fields' answers do.
 *
 * @example ownerOfSentence(publicForm, "response.tiers[0].customFields") // "public-form.custom-fields-and-options"
 */
export function ownerOfSentence(route: Route, path: string, expected?: ExpectedCounts): string {
  if (route.pagination) {
    if (path === `response.${route.pagination.resultArray}`) return RESULT_ARRAY_RULE;
    if (expected && isCountSentence(path)) return countRule(expected);
    return SCHEMA_RULE;
  }
  if (/^response\.(customFields|extraOptions|tiers)$/.test(path)) return PUBLIC_FORM_RULE;
  if (/^response\.tiers\[\d+\]\.(customFields|extraOptions)$/.test(path)) return PUBLIC_FORM_RULE;
  if (/customFields\[\d+\]\.answer$/.test(path)) return FILES_RULE;
  return SCHEMA_RULE;
}

/**
 * Judges a served answer of `route` against its schema (a page: its envelope, result array and entries,
 * and its counts as `expected` at the date, when given): one breach per rule owning a sentence, each
 * sentence of the schema's own rule on a value the provider's document allows saying so; empty when the
 * body validates.
 *
 * @example
 * judgeSchema(contract.schemas, route, body, "absent").map((b) => b.rule); // ["counts.absent-after-removal"]
 */
export function judgeSchema(
  schemas: SchemaRegistry,
  route: Route,
  body: unknown,
  expected?: ExpectedCounts,
): RuleBreach[] {
  const schema = route.response.schema ?? route.id;
  const found = route.pagination
    ? schemas.validatePage(route, body, expected ?? "not-applicable")
    : schemas.validate(schema, body);
  const byRule = new Map<string, Diagnostic[]>();
  for (const d of found) {
    const rule = ownerOfSentence(route, d.path, expected);
    byRule.set(rule, [...(byRule.get(rule) ?? []), d]);
  }
  return [...byRule].map(([rule, owned]) => {
    const sentences = rule === SCHEMA_RULE ? documentNoted(route, body, owned) : owned;
    const first = sentences[0]?.message ?? "";
    const reason =
      rule === RESULT_ARRAY_RULE
        ? first
        : rule.startsWith("counts.") && expected
          ? `counts must be ${describeExpected(expected)}: ${first}`
          : `does not validate against "${schema}": ${first}`;
    return { rule, reason, diagnostics: sentences.slice(0, 8).map((d) => d.message) };
  });
}
