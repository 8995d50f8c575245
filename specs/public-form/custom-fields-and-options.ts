import { evidenceOf } from "../runner/excerpt.js";
import { isSuccess } from "../runner/http.js";
import { fail, pass, type SpecCheck } from "../runner/verdicts.js";
import { readPublicForm } from "./public-form-fixture.js";

const RULE = "public-form.custom-fields-and-options";

interface Offer {
  customFields: unknown;
  extraOptions: unknown;
}

/** The form itself, or its first tier carrying both lists (the provider's document puts them on tiers). */
function offers(body: unknown): Offer[] {
  if (body === null || typeof body !== "object") return [];
  const form = body as Record<string, unknown>;
  const found: Offer[] = [];
  if ("customFields" in form || "extraOptions" in form) {
    found.push({ customFields: form.customFields, extraOptions: form.extraOptions });
  }
  if (Array.isArray(form.tiers)) {
    for (const tier of form.tiers) {
      if (tier !== null && typeof tier === "object") {
        const t = tier as Record<string, unknown>;
        if ("customFields" in t || "extraOptions" in t)
          found.push({ customFields: t.customFields, extraOptions: t.extraOptions });
      }
    }
  }
  return found;
}

/**
 * Public form route (Versioning 5): `customFields` and `extraOptions`, as presented to users, are there
 * before the first order. When a provider state made a form offering them, both must be non-empty.
 */
export const customFieldsAndOptionsCheck: SpecCheck = {
  id: "public-form/custom-fields-and-options",
  group: "public-form",
  rule: RULE,
  title: "The public form carries customFields and extraOptions before the first order",
  async run(ctx) {
    const read = await readPublicForm(ctx);
    const { exchange } = read;
    if (!isSuccess(exchange.status) || read.body === undefined) {
      return fail(`the public form was not served (${exchange.status})`, evidenceOf(exchange));
    }
    const all = offers(read.body);
    const lists = all.filter((o) => Array.isArray(o.customFields) && Array.isArray(o.extraOptions));
    if (lists.length === 0) {
      return fail(
        "the public form has no customFields and extraOptions lists (on the form or on a tier)",
        evidenceOf(exchange, all.length > 0 ? all : read.body),
      );
    }
    const filled = lists.filter(
      (o) => (o.customFields as unknown[]).length > 0 && (o.extraOptions as unknown[]).length > 0,
    );
    if (read.seeded && filled.length === 0) {
      return fail(
        "the form the provider state made with custom fields and options shows empty customFields or extraOptions",
        evidenceOf(exchange, lists[0]),
      );
    }
    const first = filled[0] ?? lists[0];
    const counts = first
      ? `${(first.customFields as unknown[]).length} customFields, ${(first.extraOptions as unknown[]).length} extraOptions`
      : "";
    const origin = read.seeded
      ? "a form without orders (provider state)"
      : `form ${ctx.options.formSlug}${read.note ? `; ${read.note}` : ""}`;
    return pass(`${counts} on ${origin}`);
  },
};
