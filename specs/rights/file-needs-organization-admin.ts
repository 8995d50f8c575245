import type { CheckContext } from "../runner/context.js";
import { evidenceOf, isSuccess } from "../runner/http.js";
import { NO_AUTH } from "../runner/tokens.js";
import { combine, failOn, passOn, type SubjectFinding, skip, specCheck } from "../runner/verdicts.js";
import { orderFixture } from "./order-fixture.js";

const download = (ctx: CheckContext, url: string, authorization: string | undefined) =>
  ctx.http.send({ method: "GET", url, authorization, headers: { accept: "*/*" } });

/**
 * Authentication 1 and 3: an attached file downloads with an `organization_admin` token, and is refused
 * (401 or 403) without a token and with a token lacking the right.
 */
export const fileNeedsOrganizationAdminCheck = specCheck({
  id: "rights/file-needs-organization-admin",
  rule: "rights.file-needs-organization-admin",
  title: "Attached files download only with an organization_admin token",
  async run(ctx) {
    if (ctx.options.auth.kind === "none") return skip(NO_AUTH);
    const fixture = await orderFixture(ctx);
    if (!fixture.ok) return skip(fixture.reason);
    const given = fixture.fileUrls[0] ?? fixture.stateFileUrl;
    if (!given) {
      return skip(
        fixture.source === "crawl"
          ? `no attached file URL to try: ${fixture.note}`
          : "no attached file URL to try: neither the order detail nor the state gave one (see rights.order-detail-exposes-files)",
      );
    }
    const url = new URL(given, `${ctx.options.target}/`).toString();
    const findings: SubjectFinding[] = [];
    const admin = await download(ctx, url, await ctx.authorization("admin"));
    const withAdmin = "with an organization_admin token";
    findings.push(
      isSuccess(admin.status) && admin.bytes.length > 0
        ? passOn(withAdmin, `${admin.bytes.length} bytes`)
        : failOn(
            withAdmin,
            `the file did not download (${admin.status}, ${admin.bytes.length} bytes)`,
            evidenceOf(admin),
          ),
    );
    /** A way of asking that must be refused (401 or 403); `must` says which and why. */
    const refusal = async (subject: string, authorization: string | undefined, must: string) => {
      const answer = await download(ctx, url, authorization);
      findings.push(
        answer.status === 401 || answer.status === 403
          ? passOn(subject, `refused with ${answer.status}`)
          : failOn(
              subject,
              `answered ${answer.status}; a file must be refused ${must}`,
              evidenceOf(answer, `${answer.bytes.length} bytes: ${answer.text.slice(0, 120)}`),
            ),
      );
    };
    await refusal("without a token", undefined, "(401) without a token");
    await refusal(
      "with a token lacking organization_admin",
      await ctx.authorization("reader"),
      "(403) to a token without organization_admin",
    );
    return combine(
      findings,
      `ways of asking for the file of order ${fixture.orderId} judged (${fixture.note})`,
    );
  },
});
