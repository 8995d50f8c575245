import { judgeSchema, SCHEMA_RULE } from "../../contracts/index.js";
import { checkoutFixture } from "../checkout/checkout-fixture.js";
import { readPublicForm } from "../public-form/public-form-fixture.js";
import { orderFixture } from "../rights/order-fixture.js";
import type { CheckContext } from "../runner/context.js";
import { evidenceOf, type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import { clientCredentialsBody } from "../runner/tokens.js";
import { combine, failOn, passOn, type SubjectFinding, skipOn, specCheck } from "../runner/verdicts.js";

/** A GET of a route with a token of `role`, its path filled from `params`. */
export async function get(ctx: CheckContext, routeId: string, role: "reader" | "admin", params = {}) {
  return ctx.http.send({
    method: "GET",
    url: await ctx.urlOf(ctx.contract.routes.byId(routeId), params),
    authorization: await ctx.authorization(role),
  });
}

/**
 * Judges one answer of a route against its schema, by the one schema judge (skips an answer that was not
 * a success); a sentence on a value the provider's own document allows says so.
 */
export function judge(
  ctx: CheckContext,
  subject: string,
  routeId: string,
  exchange: HttpExchange,
  body: unknown = undefined,
): SubjectFinding {
  if (!isSuccess(exchange.status)) {
    return skipOn(subject, `not served (${exchange.status}); other checks judge that`);
  }
  let value = body;
  if (value === undefined) {
    const parsed = parseJson(exchange);
    if (!parsed.ok) return failOn(subject, parsed.why, evidenceOf(exchange));
    value = parsed.value;
  }
  const route = ctx.contract.routes.byId(routeId);
  const breach = judgeSchema(ctx.contract.schemas, route, value).find((b) => b.rule === SCHEMA_RULE);
  if (!breach) return passOn(subject);
  return failOn(subject, breach.reason, evidenceOf(exchange, undefined, breach.diagnostics));
}

/**
 * Resources and their fields: the token, partner information, public form, order detail and checkout
 * intent responses validate against their schemas (those needing provider states or the admin client
 * are skipped without them).
 */
export const resourcesCheck = specCheck({
  id: "schemas/resources",
  rule: SCHEMA_RULE,
  title: "Token, partner, public form, order detail and checkout responses validate",
  async run(ctx) {
    const findings: SubjectFinding[] = [];
    const auth = ctx.options.auth;
    if (auth.kind === "token-endpoint") {
      const token = await ctx.http.send({
        method: "POST",
        url: `${ctx.options.target}/oauth2/token`,
        body: { contentType: "application/x-www-form-urlencoded", text: clientCredentialsBody(auth.reader) },
      });
      findings.push(judge(ctx, "token", "token", token));
    } else {
      const how = auth.kind === "bearer" ? "--bearer" : "--no-auth";
      findings.push(skipOn("token", `no token endpoint was asked (${how})`));
    }

    const partner = await get(ctx, "v5.partner-info", "reader");
    findings.push(judge(ctx, "partner information", "v5.partner-info", partner));

    const form = await readPublicForm(ctx);
    findings.push(judge(ctx, "public form", "v5.public-form", form.given.exchange, form.given.body));
    if ("read" in form.empty) {
      const { exchange, body } = form.empty.read;
      findings.push(judge(ctx, "public form without orders", "v5.public-form", exchange, body));
    }

    const order = await orderFixture(ctx);
    findings.push(
      order.ok
        ? judge(ctx, "order detail", "v5.order-detail", order.detail, order.body)
        : skipOn("order detail", order.reason),
    );

    const checkout = await checkoutFixture(ctx);
    if (checkout.ok) {
      const { organizationSlug, checkoutIntentId } = checkout;
      const read = await get(ctx, "v5.checkout-read", "reader", { organizationSlug, checkoutIntentId });
      findings.push(judge(ctx, "checkout intent", "v5.checkout-read", read));
    } else {
      findings.push(skipOn("checkout intent", checkout.reason));
    }
    return combine(findings, "responses valid");
  },
});
