import { leaveUrl, pay, paymentWindowMs, REFUSED_CARD, returnUrlOf, SUCCESS_CARD } from "./checkout.js";
import type { SandboxCore } from "./core.js";
import type { CheckoutIntent } from "./data/model.js";
import { type Exchange, redirect, sendHtml, sendJson, sendNotFound } from "./http.js";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const euros = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")} €`;

/** A JSON value safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;color:#1f2937}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px #0002}
a.back{display:inline-block;margin-bottom:1rem;color:#4c40cf;text-decoration:none;font-size:1.1rem}
h1{font-size:1.3rem;margin:.2rem 0}.amount{font-size:2rem;font-weight:700;margin:.5rem 0 1rem}
label{display:block;margin:.7rem 0 .2rem;font-size:.9rem}input{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #cbd5e1;border-radius:6px}
button{margin-top:1.2rem;width:100%;padding:.8rem;font-size:1.05rem;border:0;border-radius:8px;background:#4c40cf;color:#fff;cursor:pointer}
[role=alert]{margin-top:1rem;padding:.7rem;border-radius:6px;background:#fee2e2;color:#991b1b}[role=alert]:empty{display:none}
.hint{font-size:.8rem;color:#64748b;margin-top:1rem}`;

function layout(title: string, body: string, script = ""): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body><main>${body}</main>${script}</body></html>`;
}

/**
 * The page's script: the browser's back arrow leads to backUrl (a guard entry sits under the page and
 * sends the user on when reached), and payment attempts are posted in place so a failure never
 * navigates away; the user can retry as often as the window allows.
 */
function pageScript(leave: string, payUrl: string): string {
  return `<script>
(() => {
  const leave = ${scriptJson(leave)};
  if (!history.state || history.state.assopay !== "checkout") {
    history.replaceState({ assopay: "guard" }, "", location.href);
    history.pushState({ assopay: "checkout" }, "", location.href);
  }
  addEventListener("popstate", (event) => {
    if (!event.state || event.state.assopay !== "checkout") location.replace(leave);
  });
  const form = document.getElementById("pay");
  const alert = document.getElementById("message");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const response = await fetch(${scriptJson(payUrl)}, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(new FormData(form)),
      });
      const result = await response.json();
      if (result.redirectUrl) { location.assign(result.redirectUrl); return; }
      alert.textContent = result.message;
      alert.dataset.outcome = result.outcome;
      document.getElementById("attempts").textContent = String(result.failedAttempts ?? "");
    } catch (error) {
      alert.textContent = "The payment could not be sent: " + error.message;
    } finally {
      button.disabled = false;
    }
  });
})();
</script>`;
}

function checkoutPage(core: SandboxCore, intent: CheckoutIntent, message = ""): string {
  const organization = core.store.organization(intent.organizationSlug);
  const leave = leaveUrl(core, intent);
  const payUrl = `/associations/${intent.organizationSlug}/checkout/${intent.key}/pay`;
  const minutesLeft = Math.max(0, Math.ceil((intent.expiresMs - core.clock.nowMs()) / 60_000));
  const body = `<a class="back" id="back" href="${escapeHtml(leave)}">&larr; Retour au site</a>
<p>${escapeHtml(organization?.name ?? intent.organizationSlug)}</p>
<h1 id="item">${escapeHtml(intent.request.itemName)}</h1>
<p class="amount" id="amount">${euros(intent.request.initialAmount)}</p>
<form id="pay" method="post" action="${escapeHtml(payUrl)}">
<label for="cardNumber">Numéro de carte</label><input id="cardNumber" name="cardNumber" autocomplete="off" inputmode="numeric" required>
<label for="expiry">Expiration (MM/AA)</label><input id="expiry" name="expiry" value="12/30">
<label for="cvc">Cryptogramme</label><input id="cvc" name="cvc" value="123">
<button type="submit" id="submit">Payer ${euros(intent.request.initialAmount)}</button>
<div role="alert" id="message">${escapeHtml(message)}</div>
</form>
<p class="hint">Sandbox: ${SUCCESS_CARD} pays, ${REFUSED_CARD} (or any other number) is refused.
Failed attempts: <span id="attempts">${intent.failedAttempts}</span>. Time left: <span id="window">${minutesLeft}</span> of ${paymentWindowMs(core) / 60_000} minutes.</p>`;
  return layout(`Paiement - ${intent.request.itemName}`, body, pageScript(leave, payUrl));
}

/** A page where there is nothing left to pay: its link leads back to the integrator's site. */
function closedPage(title: string, message: string, link: string): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p><a class="back" id="back" href="${escapeHtml(link)}">Retour au site</a>`,
  );
}

/** `GET /associations/{slug}/checkout/{key}`: the hosted payment page. */
function showCheckoutPage(core: SandboxCore, ex: Exchange, intent: CheckoutIntent): void {
  if (intent.orderId !== undefined) {
    sendHtml(ex, 200, closedPage("Paiement effectué", "This payment is already made.", returnUrlOf(intent)));
  } else if (core.clock.nowMs() >= intent.expiresMs) {
    const minutes = paymentWindowMs(core) / 60_000;
    const message = `The payment window of ${minutes} minutes is over.`;
    sendHtml(ex, 410, closedPage("Délai dépassé", message, leaveUrl(core, intent)));
  } else {
    sendHtml(ex, 200, checkoutPage(core, intent));
  }
}

/** `POST …/checkout/{key}/pay` (form or JSON): JSON for the page's script, redirects or HTML otherwise. */
async function payOnCheckoutPage(core: SandboxCore, ex: Exchange, intent: CheckoutIntent): Promise<void> {
  const raw = (await ex.body())?.toString("utf8") ?? "";
  let card = "";
  if ((ex.req.headers["content-type"] ?? "").includes("json")) {
    try {
      card = String((JSON.parse(raw) as { cardNumber?: unknown }).cardNumber ?? "");
    } catch {
      card = "";
    }
  } else {
    card = new URLSearchParams(raw).get("cardNumber") ?? "";
  }
  const result = pay(core, intent, card);
  if ((ex.req.headers.accept ?? "").includes("application/json")) {
    sendJson(ex, result.outcome === "expired" ? 410 : 200, result);
    return;
  }
  switch (result.outcome) {
    case "succeeded":
    case "already-paid":
    case "gave-up":
      redirect(ex, result.redirectUrl);
      return;
    case "refused":
      sendHtml(ex, 200, checkoutPage(core, intent, result.message));
      return;
    case "expired":
      showCheckoutPage(core, ex, intent);
      return;
  }
}

/** The hosted checkout page: part of the service, so it answers with or without the hooks. */
export async function handleCheckoutPage(core: SandboxCore, ex: Exchange): Promise<boolean> {
  const page = /^\/associations\/([^/]+)\/checkout\/([0-9a-f]{32})(\/pay)?\/?$/.exec(ex.pathname);
  if (!page) return false;
  const [, slug = "", key, pay] = page;
  const intent = [...core.store.intents.values()].find(
    (i) => i.key === key && i.organizationSlug.toLowerCase() === slug.toLowerCase(),
  );
  if (!intent) sendNotFound(ex, "No checkout page at this address.");
  else if (pay && ex.method === "POST") await payOnCheckoutPage(core, ex, intent);
  else if (!pay && ex.method === "GET") showCheckoutPage(core, ex, intent);
  else sendNotFound(ex, `No ${ex.method} on this checkout address.`);
  return true;
}
