import { compileTemplate } from "../../contracts/index.js";
import type { CheckContext } from "../runner/context.js";
import { type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import { stateString } from "../runner/states.js";

const STATE = "an order with an attached file";

/** The order the "an order with an attached file" state made, and its detail read with the admin token. */
export type OrderFixture =
  | {
      ok: true;
      orderId: string;
      /** The file URL the state answered, if any. */
      stateFileUrl: string | undefined;
      detail: HttpExchange;
      body: unknown;
      /** URLs of the attached files the detail gives (custom fields of type File). */
      fileUrls: readonly string[];
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

/** What a run needs for the rights checks, or why they cannot run against this target. */
export function rightsPrerequisites(ctx: CheckContext): string | undefined {
  if (!ctx.states) return "the target offers no provider states (--state-url) to create an order with a file";
  if (!ctx.tokens.has("admin"))
    return "no organization_admin client was given (--admin-client-id, --admin-client-secret)";
  return undefined;
}

/** Sets up the state once per run and reads the order detail with the admin token. */
export function orderFixture(ctx: CheckContext): Promise<OrderFixture> {
  return ctx.memo.get<OrderFixture>("fixture:order-with-file", async () => {
    const missing = rightsPrerequisites(ctx);
    if (missing || !ctx.states) return { ok: false, reason: missing ?? "no provider states" };
    const answer = await ctx.states.setup(STATE);
    if (!answer.ok) return { ok: false, reason: answer.reason };
    const orderId = stateString(answer.values, "orderId");
    if (!orderId) return { ok: false, reason: `the state "${STATE}" did not answer an orderId` };
    const route = ctx.contract.routes.byId("v5.order-detail");
    const detail = await ctx.http.send({
      method: "GET",
      url: `${ctx.options.target}${compileTemplate(route.path).expand({ orderId })}`,
      authorization: await ctx.authorization("admin"),
    });
    const parsed = isSuccess(detail.status) ? parseJson(detail) : undefined;
    const body = parsed?.ok ? parsed.value : undefined;
    return {
      ok: true,
      orderId,
      stateFileUrl: stateString(answer.values, "fileUrl"),
      detail,
      body,
      fileUrls: [...new Set(attachedFileUrls(body))],
    };
  });
}
