import type { CheckContext } from "../runner/context.js";
import type { HttpExchange } from "../runner/http.js";

/** Test cards of the hosted page (the usual card-network test numbers). */
export const CARDS = Object.freeze({ success: "4242424242424242", refused: "4000000000000002" });

/** The hosted checkout page as a browser without scripts sees it. */
export interface CheckoutPage {
  exchange: HttpExchange;
  /** Absolute URL the payment form posts to, when the page has one. */
  payUrl: string | undefined;
  /** Every `href` of the page, decoded from HTML. */
  links: readonly string[];
}

const decodeHtml = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

export async function openPage(ctx: CheckContext, redirectUrl: string): Promise<CheckoutPage> {
  const exchange = await ctx.http.send({ method: "GET", url: redirectUrl, headers: { accept: "text/html" } });
  const html = exchange.text;
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>[\s\S]*?\bname="cardNumber"/i.exec(html);
  const links = [...html.matchAll(/\bhref="([^"]*)"/gi)].map((m) => decodeHtml(m[1] ?? ""));
  return {
    exchange,
    payUrl: form?.[1] ? new URL(decodeHtml(form[1]), redirectUrl).toString() : undefined,
    links,
  };
}

/** Posts the payment form once, as a browser without scripts would (redirects not followed). */
export function payOnce(ctx: CheckContext, payUrl: string, card: string): Promise<HttpExchange> {
  return ctx.http.send({
    method: "POST",
    url: payUrl,
    headers: { accept: "text/html" },
    body: {
      contentType: "application/x-www-form-urlencoded",
      text: new URLSearchParams({ cardNumber: card, expiry: "12/30", cvc: "123" }).toString(),
    },
  });
}

/** Where an answer sends the browser, if it redirects. */
export function locationOf(exchange: HttpExchange): string | undefined {
  return exchange.status >= 300 && exchange.status < 400
    ? (exchange.headers.get("location") ?? undefined)
    : undefined;
}

/** True when an answer sends the user to `url` (same address, any added query). */
export function leadsTo(exchange: HttpExchange, url: string): boolean {
  return locationOf(exchange)?.startsWith(url) === true;
}
