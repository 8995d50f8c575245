import { evidenceOf } from "../runner/http.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import { freshIntent } from "./checkout-fixture.js";
import { CARDS, leadsTo, locationOf, openPage, payOnce } from "./checkout-page.js";

const FAILURES = 6;

/**
 * Limits (checkout payment attempts): a refused payment can be retried again and again within the
 * window, the user staying on the page (no redirection), and a later good card still pays.
 */
export const unlimitedRetriesCheck = specCheck({
  id: "checkout/unlimited-retries",
  rule: "checkout.unlimited-retries",
  title: "Failed payments can be retried without limit or redirection",
  async run(ctx) {
    const intent = await freshIntent(ctx);
    if (!intent.ok) return skip(intent.reason);
    const page = await openPage(ctx, intent.redirectUrl);
    if (!page.payUrl) return skip("the checkout page has no payment form (cardNumber) this runner can post");
    for (let attempt = 1; attempt <= FAILURES; attempt++) {
      const refused = await payOnce(ctx, page.payUrl, CARDS.refused);
      const location = locationOf(refused);
      if (location !== undefined || refused.status >= 400) {
        return fail(
          `refused payment ${attempt} ${location ? `redirected the user to ${location}` : `answered ${refused.status}`}; the user must be able to retry`,
          evidenceOf(refused, location ?? refused.text.slice(0, 300)),
        );
      }
    }
    const paid = await payOnce(ctx, page.payUrl, CARDS.success);
    if (!leadsTo(paid, intent.urls.returnUrl)) {
      return fail(
        `after ${FAILURES} refused payments, a good card did not lead to returnUrl (${paid.status})`,
        evidenceOf(paid, paid.headers.get("location") ?? paid.text.slice(0, 300)),
      );
    }
    return pass(`${FAILURES} refused payments stayed on the page; the next one paid`);
  },
});
