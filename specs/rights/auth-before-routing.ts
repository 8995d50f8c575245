import { randomBytes } from "node:crypto";
import { NO_AUTH } from "../runner/tokens.js";
import { combine, type SubjectFinding, skip, specCheck } from "../runner/verdicts.js";
import { alteredToken, expectStatus } from "./auth-tokens.js";

/** Why a 404 matters where 401 was due (a 404 due is passed before this is asked). */
const why = (status: number) =>
  status === 404
    ? ": the route was looked up before the token was checked, so a client cannot tell it must log in again"
    : "";

/**
 * Authentication comes before routing under /v5 (SERVICE-FACTS, Authentication): a route that does not
 * exist, asked for with a missing, unknown (`Bearer undefined`, what a client sends before it logged in)
 * or altered token, gets 401, never a 404; only a valid token learns that the route is unknown (404).
 * Any body and any headers are accepted.
 */
export const authBeforeRoutingCheck = specCheck({
  id: "rights/auth-before-routing",
  rule: "auth.before-routing",
  title: "Under /v5, a missing or invalid token gets 401 before an unknown route gets 404",
  async run(ctx) {
    if (ctx.options.auth.kind === "none") return skip(NO_AUTH);
    const url = `${ctx.options.target}/v5/assopay-unknown-route-${randomBytes(4).toString("hex")}`;
    const valid = `Bearer ${await ctx.tokens.token("reader")}`;
    const token = valid.replace(/^bearer\s+/i, "");
    const calls: [string, string | undefined, 401 | 404][] = [
      ["an unknown /v5 route without a token", undefined, 401],
      ["an unknown /v5 route with 'Bearer undefined'", "Bearer undefined", 401],
      ["an unknown /v5 route with an altered token", `Bearer ${alteredToken(token)}`, 401],
      ["an unknown /v5 route with a valid token", valid, 404],
    ];
    const findings: SubjectFinding[] = [];
    // The status is the rule; a `WWW-Authenticate` challenge is not required, as proxies in front of a
    // provider may drop it.
    for (const [subject, authorization, expected] of calls) {
      findings.push(await expectStatus(ctx, subject, url, authorization, expected, why));
    }
    return combine(findings, "calls to an unknown /v5 route answered in the right order");
  },
});
