import type { CheckContext } from "../runner/context.js";
import { entryId, sampleListing } from "../runner/discovery.js";
import { type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import { stateString } from "../runner/states.js";
import { noAdminReason } from "../runner/tokens.js";

const STATE = "an order with an attached file";

/** Where the order came from: the provider state, `--order-id`, or the crawl of the organization's orders. */
export type OrderSource = "state" | "order-id" | "crawl";

/** An order with (as far as verify knows) an attached file, and its detail read with the admin token. */
export type OrderFixture =
  | {
      ok: true;
      orderId: string;
      source: OrderSource;
      /** The file URL the state answered, if any. */
      stateFileUrl: string | undefined;
      detail: HttpExchange;
      body: unknown;
      /** URLs of the attached files the detail gives (custom fields of type File). */
      fileUrls: readonly string[];
      /** How the order was found, for the verdict's reason. */
      note: string;
    }
  | { ok: false; reason: string };

/** Every `answer` of an object `{type: "File", answer}` anywhere in the detail. */
export function attachedFileUrls(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) attachedFileUrls(item, found);
  } else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record.type === "File" && typeof record.answer === "string" && record.answer !== "")
      found.push(record.answer);
    for (const child of Object.values(record)) attachedFileUrls(child, found);
  }
  return found;
}

type Found = Extract<OrderFixture, { ok: true }>;

/** The order as the fixture: its detail read with the admin token, and how it was found (`how`). */
async function readOrder(
  ctx: CheckContext,
  orderId: string,
  how: Pick<Found, "source" | "note"> & { stateFileUrl?: string | undefined },
): Promise<Found> {
  const detail = await ctx.http.send({
    method: "GET",
    url: `${ctx.options.target}${ctx.contract.routes.pathOf("v5.order-detail", { orderId })}`,
    authorization: await ctx.authorization("admin"),
  });
  const parsed = isSuccess(detail.status) ? parseJson(detail) : undefined;
  const body = parsed?.ok ? parsed.value : undefined;
  const fileUrls = [...new Set(attachedFileUrls(body))];
  return { ok: true, orderId, stateFileUrl: undefined, ...how, detail, body, fileUrls };
}

async function fromState(ctx: CheckContext): Promise<OrderFixture | undefined> {
  if (!ctx.states) return undefined;
  const answer = await ctx.states.setup(STATE);
  if (!answer.ok) return { ok: false, reason: answer.reason };
  const orderId = stateString(answer.values, "orderId");
  if (!orderId) return { ok: false, reason: `the state "${STATE}" did not answer an orderId` };
  const stateFileUrl = stateString(answer.values, "fileUrl");
  return readOrder(ctx, orderId, { source: "state", stateFileUrl, note: `provider state "${STATE}"` });
}

/**
 * Without states, as an integrator would: the organization's orders (first pages, reader token), then
 * the detail of each (admin token) until one gives an attached file, at most `maxOrderDetails` of them.
 * When none does, the first order read stands in (the rights checks that need a file then skip).
 */
async function fromCrawl(ctx: CheckContext): Promise<OrderFixture> {
  const limit = ctx.options.maxOrderDetails;
  const where = await ctx.coordinates();
  const url = await ctx.urlOf(ctx.contract.routes.byId("v5.org-orders"));
  const sample = await sampleListing(ctx, url, limit, await ctx.authorization("reader"));
  const ids = sample.entries.map(entryId).filter((id): id is string => id !== undefined);
  if (ids.length === 0) {
    return {
      ok: false,
      reason: `the orders of ${where.organizationSlug} gave no order to read (${sample.exchange.status}); name an order with an attached file with --order-id`,
    };
  }
  let first: Found | undefined;
  for (const [n, orderId] of ids.entries()) {
    ctx.progress.update("looking for an attached file", `order detail ${n + 1} of at most ${ids.length}`);
    const note = `found among the orders of ${where.organizationSlug} (${n + 1} order detail(s) read)`;
    const found = await readOrder(ctx, orderId, { source: "crawl", note });
    first ??= found;
    if (found.fileUrls.length > 0 || !isSuccess(found.detail.status)) {
      ctx.progress.done();
      return found;
    }
  }
  ctx.progress.done();
  return {
    ...(first as Found),
    note: `no attached file in the detail of the ${ids.length} first orders of ${where.organizationSlug}; name an order with an attached file with --order-id`,
  };
}

/** The order the rights checks use, found once per run: provider state, `--order-id`, or a crawl. */
export function orderFixture(ctx: CheckContext): Promise<OrderFixture> {
  return ctx.memo.get<OrderFixture>("fixture:order-with-file", async () => {
    // The rights checks read order details with the admin token.
    if (!ctx.tokens.has("admin")) return { ok: false, reason: noAdminReason(ctx.options.auth) };
    const given = ctx.options.orderId;
    if (given !== undefined) return readOrder(ctx, given, { source: "order-id", note: "--order-id" });
    return (await fromState(ctx)) ?? fromCrawl(ctx);
  });
}
