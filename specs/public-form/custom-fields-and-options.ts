import { evidenceOf, isSuccess } from "../runner/http.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";
import { type FormRead, type PublicFormRead, readPublicForm } from "./public-form-fixture.js";

interface Offer {
  customFields: unknown;
  extraOptions: unknown;
}

/** The form itself, or its first tier carrying both lists (the provider's document puts them on tiers). */
function offers(body: unknown): Offer[] {
  if (body === null || typeof body !== "object") return [];
  const form = body as Record<string, unknown>;
  return [form, ...(Array.isArray(form.tiers) ? form.tiers : [])]
    .filter(
      (o): o is Record<string, unknown> =>
        o !== null && typeof o === "object" && ("customFields" in o || "extraOptions" in o),
    )
    .map((o) => ({ customFields: o.customFields, extraOptions: o.extraOptions }));
}

const nonEmpty = (list: unknown) => Array.isArray(list) && list.length > 0;

/** The offers holding both lists, neither empty: a form that offers custom fields and options. */
export function filledOffers(body: unknown): Offer[] {
  return offers(body).filter((o) => nonEmpty(o.customFields) && nonEmpty(o.extraOptions));
}

/** Every custom field the form offers: on the form, its tiers and their extra options. */
function offeredFields(all: readonly Offer[]): Record<string, unknown>[] {
  const fields: Record<string, unknown>[] = [];
  const add = (list: unknown) => {
    if (Array.isArray(list))
      for (const f of list)
        if (f !== null && typeof f === "object") fields.push(f as Record<string, unknown>);
  };
  for (const offer of all) {
    add(offer.customFields);
    if (Array.isArray(offer.extraOptions))
      for (const option of offer.extraOptions) add((option as Record<string, unknown> | null)?.customFields);
  }
  return fields;
}

const name = (read: FormRead) => `${read.form.formType}/${read.form.formSlug}`;

/** The form is served and carries both lists; `filled` also asks that both hold something. */
function judgeLists(read: FormRead, subject: string, filled: boolean): SubjectFinding {
  const { exchange } = read;
  if (!isSuccess(exchange.status) || read.body === undefined) {
    return failOn(subject, `the public form was not served (${exchange.status})`, evidenceOf(exchange));
  }
  const all = offers(read.body);
  const lists = all.filter((o) => Array.isArray(o.customFields) && Array.isArray(o.extraOptions));
  if (lists.length === 0) {
    const reason = "the public form has no customFields and extraOptions lists (on the form or on a tier)";
    return failOn(subject, reason, evidenceOf(exchange, all.length > 0 ? all : read.body));
  }
  const full = filledOffers(read.body);
  if (filled && full.length === 0) {
    const reason =
      "the form given as offering custom fields and options (provider state or --empty-form) shows empty customFields or extraOptions";
    return failOn(subject, reason, evidenceOf(exchange, lists[0]));
  }
  const first = full[0] ?? lists[0];
  const counts = first
    ? `${(first.customFields as unknown[]).length} customFields, ${(first.extraOptions as unknown[]).length} extraOptions`
    : "";
  return passOn(subject, `${counts} on ${name(read)}`);
}

/** Custom fields the form's orders answered must be offered by its public form. */
function judgeAnswered(read: PublicFormRead): SubjectFinding | undefined {
  const { given, answered } = read;
  if (answered.length === 0 || !isSuccess(given.exchange.status) || given.body === undefined)
    return undefined;
  const offered = offeredFields(offers(given.body));
  const ids = new Set(offered.map((f) => String(f.id)));
  const labels = new Set(offered.map((f) => String(f.label)));
  const missing = answered.filter(
    (a) => !(a.id !== undefined && ids.has(a.id)) && !(a.label !== undefined && labels.has(a.label)),
  );
  const subject = `the custom fields the orders of ${name(given)} answered`;
  if (missing.length === 0) return passOn(subject, `${answered.length} answered custom field(s) offered`);
  const reason = `the public form does not offer ${missing.map((m) => `"${m.label ?? m.id}"`).join(", ")}, which its orders answered`;
  return failOn(subject, reason, evidenceOf(given.exchange, { offered: offered.length, answered, missing }));
}

/**
 * Public form route (Versioning 5): `customFields` and `extraOptions`, as presented to users, are there
 * before the first order. Judged on a form without orders (a provider state's, `--empty-form`'s, or one
 * found in the organization's forms), and on the given form: the custom fields its orders answered must
 * be offered.
 */
export const customFieldsAndOptionsCheck = specCheck({
  id: "public-form/custom-fields-and-options",
  rule: "public-form.custom-fields-and-options",
  title: "The public form carries customFields and extraOptions before the first order",
  async run(ctx) {
    const read = await readPublicForm(ctx);
    const findings: SubjectFinding[] = [];
    const before = "before the first order";
    if ("missing" in read.empty) findings.push(skipOn(before, read.empty.missing));
    else {
      const { source } = read.empty;
      const origin =
        source === "state"
          ? "provider state"
          : source === "empty-form"
            ? "--empty-form"
            : "found in the forms listing";
      // The state and --empty-form promise a form offering both; a form found in the listing may offer none.
      findings.push(
        judgeLists(read.empty.read, `${before} (a form without orders, ${origin})`, source !== "listing"),
      );
    }
    findings.push(judgeLists(read.given, `form ${name(read.given)}`, false));
    const answered = judgeAnswered(read);
    if (answered) findings.push(answered);
    return combine(findings, "public forms judged");
  },
});
