import type { CheckContext } from "../runner/context.js";
import { evidenceOf, isSuccess } from "../runner/http.js";
import { NO_AUTH } from "../runner/tokens.js";
import { combine, failOn, passOn, type SubjectFinding, skip, skipOn, specCheck } from "../runner/verdicts.js";
import { orderFixture } from "./order-fixture.js";

/** The same token with its last character changed: a token the provider never issued. */
export function alteredToken(token: string): string {
  const last = token.at(-1) ?? "A";
  return `${token.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

/**
 * A GET of `url` that must be answered `expected` exactly; a failure says what came instead, and `why`
 * that status matters (by default, that the request was served).
 */
export async function expectStatus(
  ctx: CheckContext,
  subject: string,
  url: string,
  authorization: string | undefined,
  expected: number,
  why = (status: number): string => (isSuccess(status) ? " (the request was served)" : ""),
): Promise<SubjectFinding> {
  const exchange = await ctx.http.send({ method: "GET", url, authorization });
  if (exchange.status === expected) return passOn(subject);
  const reason = `answered ${exchange.status}, expected ${expected}${why(exchange.status)}`;
  return failOn(subject, reason, evidenceOf(exchange));
}

/**
 * Authentication (SERVICE-FACTS): a missing, unknown or altered token gets 401; a valid token without
 * the needed right gets 403.
 */
export const authTokensCheck = specCheck({
  id: "rights/auth-tokens",
  rule: "auth.tokens",
  title: "Missing or invalid tokens get 401, tokens without the right 403",
  async run(ctx) {
    if (ctx.options.auth.kind === "none") return skip(NO_AUTH);
    const listing = await ctx.urlOf(ctx.contract.routes.byId("v5.form-items"));
    const token = await ctx.tokens.token("reader");
    const findings: SubjectFinding[] = [
      await expectStatus(ctx, "a listing without a token", listing, undefined, 401),
      await expectStatus(ctx, "a listing with an unknown token", listing, "Bearer assopay-not-a-token", 401),
      await expectStatus(
        ctx,
        "a listing with an altered token",
        listing,
        `Bearer ${alteredToken(token)}`,
        401,
      ),
    ];
    const fixture = await orderFixture(ctx);
    if (fixture.ok) {
      const route = ctx.contract.routes.byId("v5.order-detail");
      const url = await ctx.urlOf(route, { orderId: fixture.orderId });
      findings.push(
        await expectStatus(
          ctx,
          "order detail with a token lacking organization_admin",
          url,
          `Bearer ${token}`,
          403,
        ),
      );
    } else {
      findings.push(skipOn("order detail with a token lacking organization_admin", fixture.reason));
    }
    return combine(findings, "requests refused with the right status");
  },
});
