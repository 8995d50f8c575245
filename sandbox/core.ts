import type { Contract, DatedRules } from "../contracts/index.js";
import type { Auth, Client } from "./auth.js";
import type { SandboxClock } from "./clock.js";
import type { TokenCodec } from "./continuation-token.js";
import type { Organization } from "./data/model.js";
import type { ViewContext } from "./data/views.js";
import type { FaultName } from "./faults.js";
import { type Exchange, orNotFound } from "./http.js";
import type { SandboxOptions } from "./index.js";
import type { Notifier } from "./notifier.js";
import type { Store } from "./store.js";

/**
 * Everything one running sandbox is made of. `startSandbox` builds it; every handler receives it. There
 * is no module-level state: two sandboxes in one process never share anything. Its switches (`growing`,
 * `shapes`, `hooks`) are the options', defaults applied.
 */
export interface SandboxCore
  extends Readonly<Required<Pick<SandboxOptions, "growing" | "shapes" | "hooks">>> {
  readonly contract: Contract;
  readonly clock: SandboxClock;
  readonly store: Store;
  readonly auth: Auth;
  readonly notifier: Notifier;
  readonly tokens: TokenCodec;
  readonly fault: FaultName | undefined;
  /** What the sandbox's own notification receiver (`/_sink`) got, oldest first. */
  readonly sink: { at: string; path: string; signature: string | undefined; body: string }[];
  /** `http://host:port`, known once the server listens. */
  baseUrl: string;
}

/** A call to a route of the catalogue, after routing, the clock and authentication. */
export interface RouteCall {
  params: Readonly<Record<string, string>>;
  rules: DatedRules;
  client: Client;
}

/** A route's handler. It answers through `ex` and never throws for bad input. */
export type RouteHandler = (core: SandboxCore, ex: Exchange, call: RouteCall) => Promise<void> | void;

/** The organization a path names, or a 404 saying there is none. */
export function organizationOf(
  core: SandboxCore,
  ex: Exchange,
  slug: string | undefined,
): Organization | undefined {
  return orNotFound(ex, core.store.organization(slug ?? ""), `No organization with slug "${slug}".`);
}

/** What a view context is made from: a running sandbox, or what a data check stands in for one. */
type ViewSource = Pick<SandboxCore, "contract" | "baseUrl" | "fault" | "shapes">;

/** The view context of API responses (the `bad-dates` and `no-file-urls` faults act here). */
export function apiViews(core: ViewSource): ViewContext {
  return {
    baseUrl: core.baseUrl,
    dateStyle: core.fault === "bad-dates" ? "bare" : "service",
    exposeFiles: core.fault !== "no-file-urls",
    shapes: core.shapes,
    fileUrl: (orderId, fileId) =>
      `${core.baseUrl}${core.contract.routes.pathOf("v5.attached-file", { orderId, fileId })}`,
  };
}

/** The view context of notifications: always the service's own formats. */
export function notificationViews(core: ViewSource): ViewContext {
  return { ...apiViews(core), dateStyle: "service", exposeFiles: true };
}

/**
 * Emits the notification types the contract ties to a trigger or names by id (`order`, `payment` …),
 * with the event type identifier the contract gives. A type missing from the contract is not sent.
 */
export function emitType(
  core: SandboxCore,
  typeId: string,
  organizationSlug: string | null,
  data: unknown,
  metadata?: unknown,
): number {
  const type = core.contract.notificationTypes.find((t) => t.id === typeId);
  if (!type) return 0;
  return core.notifier.emit(organizationSlug, type.eventType, data, metadata).length;
}
