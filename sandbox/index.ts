import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type Contract, loadContract } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import { type AllowHostOptions, createLocalGuard } from "../core/http/local-guard.js";
import { startServer } from "../core/http/server.js";
import { ADMIN_PATHS, isControlRequest } from "./admin.js";
import { createAuth } from "./auth.js";
import { createClock } from "./clock.js";
import { createTokenCodec } from "./continuation-token.js";
import type { SandboxCore } from "./core.js";
import { checkDataAgainstContract } from "./data/check-data.js";
import { MAX_ENTRIES } from "./data/generate.js";
import type { SandboxData } from "./data/model.js";
import type { Shapes } from "./data/views.js";
import type { FaultName } from "./faults.js";
import { createExchange, sendErrors } from "./http.js";
import { createNotifier } from "./notifier.js";
import { createRouter } from "./router.js";
import { createStore } from "./store.js";

export { buildSandboxData } from "./data/build-data.js";
export { type DataFile, parseDataFile, readDataFile } from "./data/data-file.js";
export type { SandboxData } from "./data/model.js";
export type { Shapes } from "./data/views.js";
export type { FaultName } from "./faults.js";
export { faults } from "./faults.js";

/** A request the sandbox answered: its method, raw path (no query) and status. */
export interface SandboxAnswer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** The ready-made credentials and names printed on start. */
export interface SandboxCredentials {
  /** A client whose tokens carry `organization_admin` (order detail, attached files). */
  admin: { clientId: string; clientSecret: string };
  /** A client whose tokens carry no right beyond reading. */
  reader: { clientId: string; clientSecret: string };
  organizationSlug: string;
  formType: string;
  formSlug: string;
}

/**
 * The sandbox's ready-made credentials as the `ASSOPAY_*` environment variables that `assopay verify`
 * reads and `assopay gate` exports to the command it runs.
 *
 * @example
 * spawn("node", ["sdk-example.mjs"], { env: { ...process.env, ASSOPAY_BASE_URL: sandbox.url, ...credentialsEnv(sandbox.credentials) } });
 */
export function credentialsEnv(c: SandboxCredentials): Record<string, string> {
  return {
    ASSOPAY_CLIENT_ID: c.reader.clientId,
    ASSOPAY_CLIENT_SECRET: c.reader.clientSecret,
    ASSOPAY_ADMIN_CLIENT_ID: c.admin.clientId,
    ASSOPAY_ADMIN_CLIENT_SECRET: c.admin.clientSecret,
    ASSOPAY_ORG: c.organizationSlug,
    ASSOPAY_FORM_TYPE: c.formType,
    ASSOPAY_FORM_SLUG: c.formSlug,
  };
}

/** Entries of the ready-made form when `entries` is not given. */
export const DEFAULT_ENTRIES = 300;
export const DEFAULT_SEED = 1;

/** How to start a sandbox. Every option has a default; `startSandbox()` alone works. */
export interface SandboxOptions extends AllowHostOptions {
  /** Address to bind (default `127.0.0.1`). */
  host?: string;
  /** Port to bind; 0 (the default) takes any free port. */
  port?: number;
  /** The sandbox's date for every dated rule; its clock starts at 10:00 UTC that day (default: now). */
  at?: IsoDay;
  /** Seed of the generated data, client secrets and signing keys (default 1). */
  seed?: number;
  /** Entries of the ready-made form, 0 to 1,000,000 (default 300). Generated on demand. */
  entries?: number;
  /** A named fault that breaks exactly one rule (see `faults`). */
  fault?: FaultName;
  /**
   * A legal variant: a live listing. Before every first page of a listing (whatever its query: page size,
   * order, date window) and the third page of each crawl of a form's listing is served, the form takes a
   * new paid order at the listing's head, so the listing grows between crawls and while it is crawled;
   * tokens stay cursor-stable.
   * @example { growing: true }
   */
  growing?: boolean;
  /** The contract to obey (default: `loadContract()`); tests pass one to load it once. */
  contract?: Contract;
  /** Lifetime of access tokens in seconds, on the sandbox clock (default 1800, as the service). */
  tokenTtlSeconds?: number;
  /** Waits between notification delivery attempts (default 200, 700, 2000 ms). */
  notificationRetryDelaysMs?: readonly number[];
  /**
   * Whose shape wins where the seed and the provider's published document disagree (docs/contracts.md,
   * "Known divergences"): `seed` (the default) or `document`, for clients written against the live service.
   *
   * @example
   * await startSandbox({ shapes: "document" }); // an items-listing entry's `amount` is integer cents
   */
  shapes?: Shapes;
  /**
   * The sandbox's own endpoints (provider states, clock, notification log, sink, integrator site).
   * `false` plays a provider without our hooks: only the service's routes and its hosted checkout page.
   * @example startSandbox({ hooks: false }) // what `assopay sandbox --no-hooks` runs
   */
  hooks?: boolean;
  /**
   * Deliver notifications to any registered URL. Without it, only loopback URLs get them (`127.0.0.1`,
   * `[::1]`, `localhost`): others are logged as skipped, never sent, so a copied Pact file or a stray
   * registration cannot make the sandbox post signed notifications off the machine.
   * @example startSandbox({ notifyAnyHost: true }) // what `assopay sandbox --notify-any-host` runs
   */
  notifyAnyHost?: boolean;
  /**
   * Told of every request the sandbox answered, once the answer is sent: how `notify` sees whether a
   * receiver read the payment or order a notification names before acknowledging it.
   * @example startSandbox({ onAnswer: (a) => reads.push(a) })
   */
  onAnswer?: (answer: SandboxAnswer) => void;
  /** Told of what the sandbox chose not to do (a skipped notification URL), one line each. */
  onNotice?: (message: string) => void;
  /**
   * Your own data: organizations, forms (tiers, custom fields, options), orders, payments and clients, as
   * a data file (`readDataFile` then `buildSandboxData`) or a recording (`dataFromCassettes`) declares
   * them. The ready-made organization and forms stay beside them; the rest is generated as without it.
   * @example startSandbox({ data: buildSandboxData(readDataFile("my-data.yaml"), 1) })
   */
  data?: SandboxData;
  /**
   * The salt of the cassette whose placeholders the data's client secrets are (`ASSOPAY_CASSETTE_SALT`),
   * so that the recorded app's own secret is accepted (default: the public key of unsalted placeholders).
   */
  secretSalt?: string;
}

export interface RunningSandbox {
  /** Base URL of the service (`http://127.0.0.1:PORT`): `/v5/…`, `/v3/…`, `/oauth2/token`. */
  url: string;
  /** Where provider states are set up (`POST` with `{state, params, action}`); absent with `hooks: false`. */
  stateUrl: string | undefined;
  /** False when started with `hooks: false`: no state URL, no clock, no admin endpoints. */
  hooks: boolean;
  credentials: SandboxCredentials;
  /** The day the sandbox started at. */
  at: IsoDay;
  /** The assembled sandbox (clock, store, notifier …), for in-process tests. */
  core: SandboxCore;
  /** Answers one request as the socket would (Host guard, router, a throw as a 500), without the socket. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

function checkOptions(options: SandboxOptions): { entries: number; seed: number; ttl: number } {
  const entries = options.entries ?? DEFAULT_ENTRIES;
  if (!Number.isInteger(entries) || entries < 0 || entries > MAX_ENTRIES) {
    throw new AssopayError(
      "usage",
      `entries must be a whole number from 0 to ${MAX_ENTRIES}, got ${entries}`,
      {
        hint: "for example --entries 100000",
      },
    );
  }
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) {
    throw new AssopayError("usage", `seed must be a whole number, got ${seed}`, {
      hint: "for example --seed 7",
    });
  }
  const ttl = options.tokenTtlSeconds ?? 1800;
  if (!Number.isInteger(ttl) || ttl < 1) {
    throw new AssopayError("usage", `tokenTtlSeconds must be a whole number of seconds ≥ 1, got ${ttl}`);
  }
  return { entries, seed, ttl };
}

/** Starts a sandbox and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { entries, seed, ttl } = checkOptions(options);
  const contract = options.contract ?? loadContract();
  const clock = createClock(options.at);
  const store = createStore(seed, entries, options.data);
  if (options.data) checkDataAgainstContract(contract, store, options.shapes ?? "seed");
  const fault = options.fault;
  const core: SandboxCore = {
    contract,
    clock,
    store,
    auth: createAuth(store.derive, ttl, clock.nowMs, options.data?.clients ?? [], options.secretSalt),
    tokens: createTokenCodec(store.derive("continuation-tokens")),
    notifier: createNotifier(store, options),
    fault,
    growing: options.growing === true,
    shapes: options.shapes ?? "seed",
    hooks: options.hooks ?? true,
    sink: [],
    baseUrl: "",
  };
  const guard = createLocalGuard({ what: "sandbox", bindHost: options.host, allowHosts: options.allowHosts });
  const dispatch = createRouter(core);
  const onAnswer = options.onAnswer;
  // Every request passes `guard` first (its own Host names; control requests from programs only); then
  // the router, and whatever that throws becomes a 500 in the service's error shape, and a malformed
  // request line gets a 400: nothing a client sends stops the server.
  const server = createServer((req, res) => {
    const control = isControlRequest(core.hooks, req.method, req.url);
    if (!guard.admit(req, res, control ? "control" : "host")) return;
    const ex = createExchange(req, res);
    if (onAnswer) {
      const { method, pathname: path } = ex;
      res.once("finish", () => onAnswer({ method, path, status: res.statusCode }));
    }
    dispatch(ex).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendErrors(
        ex,
        500,
        "InternalError",
        `The sandbox failed on this request: ${(error as Error)?.message ?? String(error)}`,
      );
    });
  });
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  const running = await startServer(server, { what: "sandbox", host: options.host, port: options.port });
  core.baseUrl = running.url;
  const { admin, reader } = core.auth;
  return {
    url: core.baseUrl,
    stateUrl: core.hooks ? `${core.baseUrl}${ADMIN_PATHS.states}` : undefined,
    hooks: core.hooks,
    credentials: {
      admin: { clientId: admin.id, clientSecret: admin.secret },
      reader: { clientId: reader.id, clientSecret: reader.secret },
      organizationSlug: store.mainOrganization.slug,
      formType: store.mainForm.formType,
      formSlug: store.mainForm.formSlug,
    },
    at: options.at ?? clock.day(),
    core,
    handle: (req, res) => server.emit("request", req, res),
    close: () => {
      core.notifier.close();
      return running.close();
    },
  };
}
