import type { Contract, Diagnostic } from "../../contracts/index.js";
import { attachedFileUrls } from "../rights/order-fixture.js";
import { evidenceOf } from "../runner/excerpt.js";
import {
  FILES_RULE,
  ownerOfSentence,
  PUBLIC_FORM_RULE,
  SCHEMA_RULE,
  schemaBreach,
} from "../schemas/sentence-owner.js";
import type { Exchange, Judgement } from "./types.js";

/** Whether a public form offers a non-empty customFields and extraOptions (on the form or on a tier). */
function offersFilled(body: unknown): boolean {
  if (body === null || typeof body !== "object") return false;
  const form = body as Record<string, unknown>;
  const holders = [form, ...(Array.isArray(form.tiers) ? (form.tiers as unknown[]) : [])];
  return holders.some((holder) => {
    const h = (holder ?? {}) as Record<string, unknown>;
    return (
      Array.isArray(h.customFields) &&
      h.customFields.length > 0 &&
      Array.isArray(h.extraOptions) &&
      h.extraOptions.length > 0
    );
  });
}

/**
 * Judges a served answer of a route that does not paginate: its schema (sentences grouped by the rule
 * that owns them), and where the recording showed them, the public form's custom fields and options and
 * the order detail's attached file URLs.
 */
export function judgeResource(exchange: Exchange, judgement: Judgement, contract: Contract): void {
  const { route, target, targetBody: body, recorded } = exchange;
  const schema = route?.response.schema;
  if (!route || !schema) return;
  if (body === undefined) {
    judgement.breaches.push({
      rule: SCHEMA_RULE,
      reason: `${route.id} answered a body that is not JSON`,
      evidence: evidenceOf(target),
    });
    return;
  }
  const byRule = new Map<string, Diagnostic[]>();
  for (const d of contract.schemas.validate(schema, body)) {
    const rule = ownerOfSentence(d.path);
    byRule.set(rule, [...(byRule.get(rule) ?? []), d]);
  }
  for (const [rule, found] of byRule)
    judgement.breaches.push({ rule, ...schemaBreach(target, schema, found) });
  if (!exchange.sameResource) {
    if (route.id === "v5.order-detail" || route.id === "v5.public-form") {
      judgement.notes.push(
        "the target's ids differ from the recording's, so this is another resource: its contents are not compared",
      );
    }
    return;
  }
  if (route.id === "v5.public-form" && offersFilled(recorded.body) && !offersFilled(body)) {
    judgement.breaches.push({
      rule: PUBLIC_FORM_RULE,
      reason:
        "the recorded form offered customFields and extraOptions; the target's has none (empty or missing)",
      evidence: evidenceOf(target),
    });
  }
  if (route.id === "v5.order-detail") {
    const recordedFiles = attachedFileUrls(recorded.body);
    if (recordedFiles.length > 0 && attachedFileUrls(body).length === 0) {
      judgement.breaches.push({
        rule: FILES_RULE,
        reason: `the recorded detail gave ${recordedFiles.length} attached file URL(s) (custom fields of type File); the target's gives none`,
        evidence: evidenceOf(target),
      });
    }
  }
}
