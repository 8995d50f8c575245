import { type CheckContext, readerGet } from "../runner/context.js";
import { evidenceOf, isSuccess } from "../runner/http.js";
import { stateString } from "../runner/states.js";
import { combine, failOn, passOn, type SubjectFinding, skip, skipOn, specCheck } from "../runner/verdicts.js";
import { createCheckoutIntent, integratorUrls, verifiedOrganization } from "./checkout-fixture.js";

/**
 * Whether the target knows the organization, asked after its checkout answered 404: a refusal for an
 * association that does not exist is no evidence about verification, but a 404 for one that exists is
 * the target's way of refusing it.
 */
async function exists(ctx: CheckContext, organizationSlug: string): Promise<boolean> {
  const exchange = await readerGet(
    ctx,
    await ctx.urlOf(ctx.contract.routes.byId("v5.organization"), { organizationSlug }),
  );
  return exchange.status !== 404;
}

async function judge(
  ctx: CheckContext,
  subject: string,
  slug: string,
  mustAccept: boolean,
): Promise<SubjectFinding> {
  const created = await createCheckoutIntent(ctx, slug, integratorUrls());
  if (created.exchange.status === 404 && !(await exists(ctx, slug))) {
    return skipOn(
      subject,
      `not found: the target knows no organization "${slug}" (its checkout and GET /v5/organizations/${slug} answered 404), so a refusal says nothing about verification; name an existing association`,
    );
  }
  const accepted = isSuccess(created.exchange.status);
  if (accepted === mustAccept) return passOn(subject, `${subject}: ${created.exchange.status}`);
  return failOn(
    subject,
    mustAccept
      ? `a checkout intent was refused (${created.exchange.status}); this association must take payments on ${ctx.at}`
      : `a checkout intent was accepted (${created.exchange.status}); an unverified new association cannot receive a payment on ${ctx.at}`,
    evidenceOf(created.exchange),
  );
}

/** A newly registered, unverified association: `--unverified-org`, else the provider state. */
async function newAssociation(
  ctx: CheckContext,
): Promise<{ ok: true; organizationSlug: string } | { ok: false; reason: string }> {
  const named = ctx.options.unverifiedOrg;
  if (named !== undefined) return { ok: true, organizationSlug: named };
  if (!ctx.states) {
    return {
      ok: false,
      reason:
        "no newly registered, unverified association to try: name one with --unverified-org SLUG (or give a --state-url that makes one)",
    };
  }
  const answer = await ctx.states.setup("a newly registered association");
  if (!answer.ok) return answer;
  const slug = stateString(answer.values, "organizationSlug");
  return slug
    ? { ok: true, organizationSlug: slug }
    : { ok: false, reason: "the state answered no organizationSlug" };
}

/**
 * What the service does 6: from 2025-06-01 a newly registered association cannot receive a payment
 * until verified (its checkout intent is refused); a verified one is unaffected, on any date.
 */
export const associationsVerificationCheck = specCheck({
  id: "checkout/associations-verification",
  rule: "associations.verification",
  title: "New associations need verification before payments (from 2025-06-01)",
  async run(ctx) {
    const rules = ctx.datedRulesAt(ctx.contract.routes.byId("v5.checkout-create"));
    const entry = ctx.contract.timeline.entry("new-association-verification");
    const findings: SubjectFinding[] = [];
    const fresh = await newAssociation(ctx);
    const freshSlug = fresh.ok ? fresh.organizationSlug : undefined;
    if (freshSlug) {
      const subject = `a newly registered association (${freshSlug})`;
      const finding = await judge(ctx, subject, freshSlug, !rules.newAssociationsNeedVerification);
      // The association this check is about was named (flag or state) and does not exist: the check
      // judged nothing of its rule, whatever the verified part gives.
      if (finding.verdict === "skip") {
        const named = ctx.options.unverifiedOrg !== undefined ? " (--unverified-org)" : " (from the state)";
        return skip(`${subject}${named}: ${finding.reason}`);
      }
      findings.push(finding);
    } else {
      findings.push(skipOn("a newly registered association", fresh.ok ? "no organization" : fresh.reason));
    }
    const verified = await verifiedOrganization(ctx);
    if (!verified.ok) findings.push(skipOn("a verified association", verified.reason));
    else {
      const slug = verified.organizationSlug;
      findings.push(await judge(ctx, `a verified association (${slug})`, slug, true));
    }
    return combine(
      findings,
      "associations judged",
      rules.newAssociationsNeedVerification && entry ? [entry.id] : undefined,
    );
  },
});
