import { evidenceOf } from "../runner/http.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import { freshIntent } from "./checkout-fixture.js";
import { CARDS, leadsTo, openPage, payOnce } from "./checkout-page.js";
import { targetClock } from "./target-clock.js";

const OPEN_AT = 14;
const CLOSED_AT = 16;

/**
 * Limits (checkout payment window): a checkout intent can be paid 14 minutes after its creation and no
 * longer 16 minutes after. Needs the target's movable clock; the clock is put back afterwards.
 */
export const window15MinutesCheck = specCheck({
  id: "checkout/window-15-minutes",
  rule: "checkout.window-15-minutes",
  title: "A checkout can be paid during 15 minutes and not after",
  async run(ctx) {
    const clock = await targetClock(ctx);
    if (!clock) {
      return skip(
        ctx.states
          ? "the target offers no movable clock next to its state URL (/_clock): 15 minutes cannot be waited out"
          : "needs a movable clock to let 15 minutes pass: the target offers none (a clock at /_clock next to --state-url, as the sandbox has)",
      );
    }
    const early = await freshIntent(ctx);
    const late = await freshIntent(ctx);
    if (!early.ok) return skip(early.reason);
    if (!late.ok) return skip(late.reason);
    const earlyPage = await openPage(ctx, early.redirectUrl);
    const latePage = await openPage(ctx, late.redirectUrl);
    if (!earlyPage.payUrl || !latePage.payUrl) {
      return skip("the checkout page has no payment form (cardNumber) this runner can post");
    }
    try {
      if (!(await clock.advanceMinutes(OPEN_AT)))
        return skip(`the target's clock at ${clock.url} would not move`);
      const paid = await payOnce(ctx, earlyPage.payUrl, CARDS.success);
      if (!leadsTo(paid, early.urls.returnUrl)) {
        return fail(
          `paying ${OPEN_AT} minutes after the checkout intent was created did not lead to returnUrl (${paid.status})`,
          evidenceOf(paid, `${paid.headers.get("location") ?? ""} ${paid.text.slice(0, 300)}`),
        );
      }
      await clock.advanceMinutes(CLOSED_AT - OPEN_AT);
      const tooLate = await payOnce(ctx, latePage.payUrl, CARDS.success);
      if (leadsTo(tooLate, late.urls.returnUrl)) {
        return fail(
          `a payment ${CLOSED_AT} minutes after the checkout intent was created was accepted`,
          evidenceOf(tooLate, tooLate.headers.get("location") ?? ""),
        );
      }
      return pass(`paid at ${OPEN_AT} minutes; refused at ${CLOSED_AT} minutes (${tooLate.status})`);
    } finally {
      await clock.reset();
    }
  },
});
