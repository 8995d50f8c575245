import { type InterceptPlan, intercepts, originOf, withOriginHeader } from "./hosts.js";

/** Where Node's built-in fetch (undici) looks up its dispatcher; `undici.setGlobalDispatcher` writes it. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/** The part of an undici dispatcher that fetch uses. */
interface Dispatcher {
  /** `options` also holds the path, method, body…, passed on as they are. */
  dispatch(options: { origin?: string | URL; headers?: unknown }, handler: unknown): boolean;
  close(...args: unknown[]): unknown;
  destroy(...args: unknown[]): unknown;
}

type Holder = Record<symbol, Dispatcher | undefined>;

/**
 * Node creates fetch's dispatcher when fetch is first used. A `data:` URL makes it do so without any
 * network, so the dispatcher can be wrapped before the application sends anything.
 */
function currentDispatcher(): Dispatcher {
  const holder = globalThis as unknown as Holder;
  if (holder[GLOBAL_DISPATCHER] === undefined) void fetch("data:,").catch(() => undefined);
  const found = holder[GLOBAL_DISPATCHER];
  if (found === undefined) throw new Error("Node's fetch has no global dispatcher to wrap");
  return found;
}

/**
 * Installs, as fetch's global dispatcher, one that sends requests for the named hosts to the target
 * (over plain http, the origin meant in a header) and everything else to the dispatcher it replaces.
 * Redirects fetch follows go through it too. Returns the function that puts the old one back.
 */
export function interceptFetch(plan: InterceptPlan): () => void {
  const holder = globalThis as unknown as Holder;
  const inner = currentDispatcher();
  const target = plan.target.origin;
  const wrapper: Dispatcher = {
    dispatch(options, handler) {
      const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
      if (origin === undefined || !intercepts(plan, origin.hostname)) return inner.dispatch(options, handler);
      const meant = originOf(origin.protocol, origin.hostname, origin.port);
      const headers = withOriginHeader(options.headers, meant);
      return inner.dispatch({ ...options, origin: target, headers }, handler);
    },
    close: (...args) => inner.close(...args),
    destroy: (...args) => inner.destroy(...args),
  };
  holder[GLOBAL_DISPATCHER] = wrapper;
  const undoOwn = interceptOwnDispatcher(plan);
  return () => {
    undoOwn();
    if (holder[GLOBAL_DISPATCHER] === wrapper) holder[GLOBAL_DISPATCHER] = inner;
  };
}

/** The URL a `fetch` call asks for, whatever form its first argument takes. */
function urlOf(input: unknown): URL | undefined {
  const text = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
  return URL.canParse(text) ? new URL(text) : undefined;
}

/**
 * `fetch(url, { dispatcher })` with a dispatcher of the application's own (an undici `Agent`) skips the
 * global one. For a named host the call goes without it, so through the global dispatcher above and
 * on to the target; any other call is left as it was. A redirect to a named host through such a
 * dispatcher is refused by the socket guard (`sockets.ts`), never let through.
 */
function interceptOwnDispatcher(plan: InterceptPlan): () => void {
  const original = globalThis.fetch;
  const wrapped: typeof fetch = (input, init) => {
    if (init === undefined || !("dispatcher" in init)) return original(input, init);
    if (!intercepts(plan, urlOf(input)?.hostname)) return original(input, init);
    const { dispatcher: _own, ...rest } = init as RequestInit & { dispatcher?: unknown };
    return original(input, rest);
  };
  globalThis.fetch = wrapped;
  return () => {
    if (globalThis.fetch === wrapped) globalThis.fetch = original;
  };
}
