import { type CheckContext, readerGet } from "../runner/context.js";
import { sampleListing } from "../runner/discovery.js";
import { type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import type { FormRef } from "../runner/options.js";
import { stateString } from "../runner/states.js";

const STATE = "a form with custom fields and options and no order";
/** Most forms whose orders are looked at while looking for one without orders. */
const MAX_FORMS = 20;

/** Where the form judged "before the first order" came from. */
export type EmptyFormSource = "state" | "empty-form" | "listing";

/** One public form as read with the reader token. */
export interface FormRead {
  form: FormRef;
  exchange: HttpExchange;
  body: unknown;
}

/** The public forms read once per run. */
export interface PublicFormRead {
  /** The form of `--form-type`/`--form-slug` (or the state's). */
  given: FormRead;
  /** A form without any order, when one was made or found; else why not (`missing`). */
  empty: { read: FormRead; source: EmptyFormSource } | { missing: string };
  /**
   * Custom fields (id or label) the given form's orders answered, read from its first orders: the
   * public form must offer them.
   */
  answered: readonly { id: string | undefined; label: string | undefined }[];
}

async function readForm(ctx: CheckContext, organizationSlug: string, form: FormRef): Promise<FormRead> {
  const route = ctx.contract.routes.byId("v5.public-form");
  const exchange = await readerGet(ctx, await ctx.urlOf(route, { organizationSlug, ...form }));
  const parsed = isSuccess(exchange.status) ? parseJson(exchange) : undefined;
  return { form, exchange, body: parsed?.ok ? parsed.value : undefined };
}

/** The first orders of a form (listing, reader token): none means the form has no order yet. */
async function firstOrders(ctx: CheckContext, organizationSlug: string, form: FormRef, limit: number) {
  const url = await ctx.urlOf(ctx.contract.routes.byId("v5.form-orders"), { organizationSlug, ...form });
  return sampleListing(ctx, url, limit, await ctx.authorization("reader"));
}

const text = (value: unknown) =>
  typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined;

/** Custom fields answered in orders: `items[].customFields[]` (`id`, `name`). */
function answeredFields(orders: readonly Record<string, unknown>[]) {
  const found = new Map<string, { id: string | undefined; label: string | undefined }>();
  for (const order of orders) {
    const items = Array.isArray(order.items) ? order.items : [];
    for (const item of items as Record<string, unknown>[]) {
      const fields = Array.isArray(item?.customFields) ? item.customFields : [];
      for (const field of fields as Record<string, unknown>[]) {
        const id = text(field?.id);
        const label = text(field?.name) ?? text(field?.label);
        if (id !== undefined || label !== undefined) found.set(`${id}|${label}`, { id, label });
      }
    }
  }
  return [...found.values()];
}

/** Without states: `--empty-form`, else the organization's forms (`GET …/forms`) for one without orders. */
async function findEmptyForm(
  ctx: CheckContext,
  organizationSlug: string,
): Promise<{ form: FormRef; source: EmptyFormSource } | { missing: string }> {
  const named = ctx.options.emptyForm;
  if (named) {
    const orders = await firstOrders(ctx, organizationSlug, named, 1);
    if (!orders.served) {
      return {
        missing: `the orders of --empty-form ${named.formType}/${named.formSlug} could not be read (${orders.exchange.status}), so it cannot be told to have none: check its type and slug`,
      };
    }
    if (orders.entries.length > 0) {
      return {
        missing: `--empty-form ${named.formType}/${named.formSlug} has orders, so "before the first order" cannot be judged on it`,
      };
    }
    return { form: named, source: "empty-form" };
  }
  const url = `${ctx.options.target}/v5/organizations/${encodeURIComponent(organizationSlug)}/forms`;
  const forms = await sampleListing(ctx, url, MAX_FORMS, await ctx.authorization("reader"));
  if (!forms.served) {
    return {
      missing: `the target cannot list the forms of ${organizationSlug} (GET ${url} answered ${forms.exchange.status}); give a form without orders with --empty-form TYPE/SLUG`,
    };
  }
  for (const entry of forms.entries) {
    const formType = text(entry.formType);
    const formSlug = text(entry.formSlug);
    if (!formType || !formSlug) continue;
    const orders = await firstOrders(ctx, organizationSlug, { formType, formSlug }, 1);
    if (orders.served && orders.entries.length === 0)
      return { form: { formType, formSlug }, source: "listing" };
  }
  return {
    missing: `none of the ${forms.entries.length} forms listed for ${organizationSlug} is without orders; give one with --empty-form TYPE/SLUG`,
  };
}

/** Reads the public forms once per run: the state's fresh form, or one found without orders, and --form. */
export function readPublicForm(ctx: CheckContext): Promise<PublicFormRead> {
  return ctx.memo.get("fixture:public-form", async () => {
    const where = await ctx.coordinates();
    const givenRef = { formType: where.formType, formSlug: where.formSlug };
    let empty: PublicFormRead["empty"];
    if (ctx.states) {
      const answer = await ctx.states.setup(STATE);
      if (answer.ok) {
        const slug = stateString(answer.values, "organizationSlug") ?? where.organizationSlug;
        const form = {
          formType: stateString(answer.values, "formType") ?? where.formType,
          formSlug: stateString(answer.values, "formSlug") ?? where.formSlug,
        };
        empty = { read: await readForm(ctx, slug, form), source: "state" };
      } else {
        empty = { missing: answer.reason };
      }
    } else {
      const found = await findEmptyForm(ctx, where.organizationSlug);
      empty =
        "missing" in found
          ? found
          : { read: await readForm(ctx, where.organizationSlug, found.form), source: found.source };
    }
    const given = await readForm(ctx, where.organizationSlug, givenRef);
    const orders = await firstOrders(ctx, where.organizationSlug, givenRef, 20);
    return { given, empty, answered: answeredFields(orders.entries) };
  });
}
