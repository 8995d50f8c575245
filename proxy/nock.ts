/**
 * `assopay-contract/nock`: a cassette replayed in-process through nock interceptors, for SDK unit tests
 * that run without a server. Matching, ordering, misses and `at` behave exactly as `assopay replay`.
 */
import type { IncomingHttpHeaders } from "node:http";
import nock from "nock";
import type { Contract } from "../contracts/types.js";
import { parseIsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import { isJsonType } from "./cassette/body.js";
import { loadCassette } from "./load-cassette.js";
import { heldWireBytes } from "./replay/held.js";
import { timelineView } from "./replay/options.js";
import { cassetteWarnings, Replayer } from "./replay/replayer.js";
import { requestFrom } from "./replay/serve.js";

export { loadCassette } from "./load-cassette.js";

/** Options of {@link loadCassetteIntoNock}. */
export interface NockCassetteOptions {
  /**
   * Where the SDK under test sends its requests (scheme, host and port only): the cassette's paths are
   * served under it.
   * @example { baseUrl: "https://api.helloasso.com" }
   */
  baseUrl: string;
  /**
   * Answer as the service will at this date (see `assopay replay --at`).
   * @example { baseUrl: "https://api.helloasso.com", at: "2025-07-01" }
   */
  at?: string;
  /**
   * The contract `at` applies (default: the package's own).
   * @example { baseUrl: "https://api.helloasso.com", at: "2025-07-01", contract: loadContract() }
   */
  contract?: Pick<Contract, "routes" | "timeline">;
  /**
   * The salt the cassette was recorded with, if any.
   * @example { baseUrl: "https://api.helloasso.com", secretSalt: process.env.ASSOPAY_CASSETTE_SALT }
   */
  secretSalt?: string;
}

/** A cassette loaded into nock. */
export interface NockCassette {
  /** The nock scope holding the interceptors. */
  readonly scope: nock.Scope;
  /** Interactions that can be served. */
  readonly interactions: number;
  /** Warnings from loading (skipped incomplete documents). */
  readonly warnings: readonly string[];
  /** The miss explanations (problem `detail`s) met so far: assert it is empty at the end of a test. */
  readonly misses: readonly string[];
  /** Removes the interceptors. */
  restore(): void;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** nock hands the body over as parsed JSON, UTF-8 text, or hex for bytes that are not UTF-8. */
function bodyBuffer(body: unknown, headers: IncomingHttpHeaders): Buffer {
  if (body === undefined || body === null || body === "") return Buffer.alloc(0);
  if (typeof body !== "string") return Buffer.from(JSON.stringify(body), "utf8");
  const type = String(headers["content-type"] ?? "");
  const textual =
    type === "" || type.startsWith("text/") || isJsonType(type) || type.includes("form-urlencoded");
  if (!textual && /^(?:[0-9a-f]{2})+$/.test(body)) return Buffer.from(body, "hex");
  return Buffer.from(body, "utf8");
}

function origin(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.pathname !== "/" || url.search) {
    throw new AssopayError("usage", `baseUrl must be scheme, host and port only, got "${baseUrl}"`, {
      hint: "the cassette's paths (/v5/…) are served as recorded, under that origin",
    });
  }
  return url.origin;
}

/**
 * Loads a cassette and defines nock interceptors that replay it for every request to `baseUrl`.
 *
 * @example
 * const cassette = await loadCassetteIntoNock("recordings/pagination-crawl.yaml", { baseUrl: "https://api.helloasso.com" });
 * await sdk.listItems(); // served from the cassette
 * expect(cassette.misses).toEqual([]);
 * cassette.restore();
 */
export async function loadCassetteIntoNock(
  path: string,
  options: NockCassetteOptions,
): Promise<NockCassette> {
  const base = origin(options.baseUrl);
  const cassette = await loadCassette(path, { secretSalt: options.secretSalt || undefined });
  const at = options.at === undefined ? undefined : parseIsoDay(options.at);
  const view = await timelineView({ at, contract: options.contract });
  const replayer = new Replayer([cassette], { at, view, secretSalt: options.secretSalt || undefined });
  const misses: string[] = [];
  const scope = nock(base).persist();
  const interceptors: nock.Interceptor[] = [];
  for (const method of METHODS) {
    const interceptor = scope.intercept(() => true, method);
    interceptors.push(interceptor);
    interceptor.reply(async function reply(this: nock.ReplyFnContext, uri, body) {
      const headers = { ...this.req.headers } as IncomingHttpHeaders;
      if (typeof body === "object" && body !== null) delete headers["content-encoding"];
      const request = await requestFrom(method, uri, headers, bodyBuffer(body, headers));
      const result = replayer.answer(request);
      if (result.kind === "miss") misses.push(result.message);
      const bytes = await heldWireBytes(result.response);
      const replyHeaders = { ...result.response.headers, ...result.headers };
      replyHeaders["content-length"] = String(bytes.length);
      return [result.response.status, method === "HEAD" ? "" : bytes, replyHeaders];
    });
  }
  return {
    scope,
    interactions: replayer.index.size,
    warnings: cassetteWarnings([cassette], options.secretSalt),
    misses,
    restore() {
      scope.persist(false);
      for (const interceptor of interceptors) nock.removeInterceptor(interceptor);
    },
  };
}
