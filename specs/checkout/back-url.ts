import { evidenceOf, isSuccess } from "../runner/http.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import { freshIntent } from "./checkout-fixture.js";
import { openPage } from "./checkout-page.js";

/**
 * What the service does 4 and Limits (return from checkout): the way back from the hosted checkout page
 * (its back link) leads to the intent's backUrl, not to errorUrl.
 */
export const backUrlCheck = specCheck({
  id: "checkout/back-url",
  rule: "checkout.back-url",
  title: "Leaving the checkout page leads to backUrl",
  async run(ctx) {
    const intent = await freshIntent(ctx);
    if (!intent.ok) return skip(intent.reason);
    const page = await openPage(ctx, intent.redirectUrl);
    if (!isSuccess(page.exchange.status)) {
      return fail(`the checkout page did not open (${page.exchange.status})`, evidenceOf(page.exchange));
    }
    const { backUrl, errorUrl } = intent.urls;
    if (page.links.includes(backUrl)) return pass(`the page links back to ${backUrl}`);
    const wrong = page.links.find((link) => link.startsWith(errorUrl));
    return fail(
      wrong
        ? `the page's way back leads to errorUrl (${wrong}), not backUrl`
        : `no link of the page leads to backUrl ${backUrl}`,
      evidenceOf(page.exchange, { links: page.links, backUrl }),
    );
  },
});
