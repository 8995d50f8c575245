import { ACCESS_TOKEN_STATE } from "../contracts/pact/interaction.js";
import { isIsoDay } from "../core/dates.js";
import { handleCheckoutPage } from "./checkout-page.js";
import { clockBoundProblem, startOfSandboxDay } from "./clock.js";
import type { SandboxCore } from "./core.js";
import { type Exchange, readJson, sendErrors, sendHtml, sendJson } from "./http.js";
import { answerPactMessage, PACT_MESSAGE_PATH } from "./pact-messages.js";
import { formatServiceDate } from "./service-dates.js";
import { StateError, setUpState, tearDown } from "./states.js";

/** Paths of the sandbox's own endpoints (not the service's). */
export const ADMIN_PATHS = {
  states: "/_states",
  clock: "/_clock",
  notifications: "/_notifications",
  sink: "/_sink",
  site: "/_site",
} as const;

const KEPT_SINK = 200;

/**
 * True for a request to one of the sandbox's state-changing endpoints (with its hooks on): anything but
 * GET or HEAD under `/_` (states, clock, sink) and Pact's message requests. They need a JSON body or
 * the control header, and no page of another site may send them.
 */
export function isControlRequest(
  hooks: boolean,
  method: string | undefined,
  url: string | undefined,
): boolean {
  if (!hooks || method === "GET" || method === "HEAD") return false;
  const path = (url ?? "/").split("?")[0] ?? "/";
  return path.startsWith("/_") || (path === PACT_MESSAGE_PATH && method === "POST");
}

function clockView(core: SandboxCore) {
  return {
    now: formatServiceDate(core.clock.instant(), "service"),
    utc: new Date(core.clock.nowMs()).toISOString(),
    day: core.clock.day(),
  };
}

/** `POST /_states` (Pact's provider-state convention) and `GET /_states` (the list). */
async function states(core: SandboxCore, ex: Exchange): Promise<void> {
  if (ex.method === "GET") {
    sendJson(ex, 200, { states: core.contract.providerStates });
    return;
  }
  const parsed = await readJson(ex);
  if (!parsed.ok) return;
  const body = (parsed.value ?? {}) as {
    state?: unknown;
    states?: unknown;
    params?: unknown;
    action?: unknown;
  };
  const action = body.action ?? "setup";
  if (action === "teardown") {
    // An access token changes nothing to undo; the interaction's other states reset everything.
    if (body.state !== ACCESS_TOKEN_STATE) tearDown(core);
    sendJson(ex, 200, {});
    return;
  }
  const given = typeof body.state === "string" ? [body.state] : Array.isArray(body.states) ? body.states : [];
  // Pact's verifier sends `"state": ""` for an interaction without provider state: nothing to set up.
  const names = given.filter((n) => n !== "");
  if (action === "setup" && given.length > 0 && names.length === 0) {
    sendJson(ex, 200, {});
    return;
  }
  const params =
    typeof body.params === "object" && body.params !== null ? (body.params as Record<string, unknown>) : {};
  if (action !== "setup" || names.length === 0 || !names.every((n) => typeof n === "string")) {
    sendErrors(
      ex,
      400,
      "BadProviderState",
      'send {"state": NAME, "params": {...}, "action": "setup" | "teardown"}',
    );
    return;
  }
  try {
    let result: Record<string, unknown> = {};
    for (const name of names as string[]) result = { ...result, ...setUpState(core, name, params) };
    sendJson(ex, 200, result);
  } catch (error) {
    const known = error instanceof StateError;
    sendErrors(ex, known ? 400 : 500, "BadProviderState", (error as Error).message ?? String(error));
  }
}

/**
 * Moves the clock as a `POST /_clock` body asks, where the clock's bound allows: the sentence saying why
 * not otherwise, or `undefined` for a body that asks nothing readable.
 */
function moveClock(core: SandboxCore, body: Record<string, unknown>): string | undefined | false {
  const clock = core.clock;
  if (body.reset === true) {
    clock.reset();
    return false;
  }
  const moved = (targetMs: number, move: () => void) => {
    const refused = clockBoundProblem(targetMs);
    if (!refused) move();
    return refused ?? false;
  };
  const advance = (ms: number) => moved(clock.nowMs() + ms, () => clock.advance(ms));
  const set = (ms: number) => moved(ms, () => clock.set(new Date(ms)));
  if (typeof body.advanceSeconds === "number") return advance(body.advanceSeconds * 1000);
  if (typeof body.advanceMinutes === "number") return advance(body.advanceMinutes * 60_000);
  if (typeof body.day === "string" && isIsoDay(body.day)) return set(startOfSandboxDay(body.day));
  if (typeof body.at === "string" && !Number.isNaN(Date.parse(body.at))) return set(Date.parse(body.at));
  return undefined;
}

/** `GET /_clock`, and `POST /_clock` with `{advanceSeconds}`, `{advanceMinutes}`, `{day}`, `{at}` or `{reset: true}`. */
async function clock(core: SandboxCore, ex: Exchange): Promise<void> {
  if (ex.method === "POST") {
    const parsed = await readJson(ex);
    if (!parsed.ok) return;
    const refused = moveClock(core, (parsed.value ?? {}) as Record<string, unknown>);
    if (refused !== false) {
      sendErrors(
        ex,
        400,
        "BadClock",
        refused ??
          'send {"advanceSeconds": N}, {"advanceMinutes": N}, {"day": "YYYY-MM-DD"}, {"at": ISO instant} or {"reset": true}',
      );
      return;
    }
  }
  sendJson(ex, 200, clockView(core));
}

/** A page standing for the integrator's site (default backUrl, returnUrl and errorUrl of states). */
function site(ex: Exchange, which: string): void {
  const clean = (text: string) => text.replace(/[^\p{L}\p{N} _.:/@-]/gu, "");
  const rows = [...ex.query].map(
    ([k, v]) => `<li><code>${clean(k)}</code> = <code id="${clean(k)}">${clean(v)}</code></li>`,
  );
  const title = `Integrator site: ${clean(which)}`;
  sendHtml(
    ex,
    200,
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1 id="page">${clean(which)}</h1><ul>${rows.join("")}</ul></body></html>`,
  );
}

/**
 * The sandbox's own endpoints (only with its hooks on) and the hosted checkout page. Returns false when
 * the path is none of them, so the router goes on to the service's routes.
 */
export async function handleAdmin(core: SandboxCore, ex: Exchange): Promise<boolean> {
  const sink = core.sink;
  const path = ex.pathname;
  if (!core.hooks) return handleCheckoutPage(core, ex);
  if (path === ADMIN_PATHS.states && (ex.method === "POST" || ex.method === "GET")) await states(core, ex);
  else if (path === PACT_MESSAGE_PATH && ex.method === "POST") await answerPactMessage(core, ex);
  else if (path === ADMIN_PATHS.clock && (ex.method === "POST" || ex.method === "GET")) await clock(core, ex);
  else if (path === ADMIN_PATHS.notifications && ex.method === "GET")
    sendJson(ex, 200, { deliveries: core.notifier.deliveries(), emitted: core.notifier.emitted() });
  else if (path === ADMIN_PATHS.sink || path.startsWith(`${ADMIN_PATHS.sink}/`)) {
    if (ex.method === "GET") {
      sendJson(ex, 200, { received: sink });
    } else {
      const body = (await ex.body())?.toString("utf8") ?? "";
      sink.push({
        at: new Date().toISOString(),
        path,
        signature: ex.req.headers["x-ha-signature"] as string | undefined,
        body,
      });
      if (sink.length > KEPT_SINK) sink.splice(0, sink.length - KEPT_SINK);
      sendJson(ex, 200, { received: true });
    }
  } else if (path.startsWith(`${ADMIN_PATHS.site}/`) && ex.method === "GET")
    site(ex, path.slice(ADMIN_PATHS.site.length + 1));
  else return handleCheckoutPage(core, ex);
  return true;
}
