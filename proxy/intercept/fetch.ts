import { type InterceptPlan, intercepts, originOf, withOriginHeader } from "./rewrite.js";

/** Where Node's built-in fetch (undici) looks up its dispatcher; `undici.setGlobalDispatcher` writes it. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/** The part of an undici dispatcher that fetch uses. */
interface Dispatcher {
  dispatch(options: DispatchOptions, handler: unknown): boolean;
  close(...args: unknown[]): unknown;
  destroy(...args: unknown[]): unknown;
}

interface DispatchOptions {
  origin?: string | URL;
  path: string;
  headers?: unknown;
  [other: string]: unknown;
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
  return () => {
    if (holder[GLOBAL_DISPATCHER] === wrapper) holder[GLOBAL_DISPATCHER] = inner;
  };
}
