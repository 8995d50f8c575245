import { join } from "node:path";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";
import type { BrokerSource } from "../pact/child-protocol.js";
import type { PlannedPolicy } from "./types.js";

/** A client of the target's token endpoint. */
export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** Everything a run needs, resolved once and frozen. */
export interface VerifyOptions {
  /** Base address of the target, without a trailing slash (the token endpoint sits at its root). */
  target: string;
  /** True when the target is the embedded sandbox started by the run. */
  embedded: boolean;
  /** Provider-state setup URL (Pact convention); absent when the target offers none. */
  stateUrl: string | undefined;
  at: IsoDay;
  /** Client without the `organization_admin` right (or with it: it reads the listings). */
  reader: Credentials;
  /** Client with the `organization_admin` right; rights checks skip without it. */
  admin: Credentials | undefined;
  organizationSlug: string;
  formType: string;
  formSlug: string;
  /** Groups or check ids to run; empty runs everything. */
  only: readonly string[];
  planned: PlannedPolicy;
  /** Most pages one crawl may take when the number of entries is not known. */
  maxPages: number;
  /** Longest one crawl may take. */
  crawlTimeLimitMs: number;
  requestTimeoutMs: number;
  /** How long to wait for each expected notification. */
  notificationTimeoutMs: number;
  /** Page size asked for during crawls; absent lets the provider choose (its default, 20). */
  pageSize: number | undefined;
  /** Entries asked of the "a form with entries" provider state. */
  seededEntries: number;
  /** Folder holding the Pact files. */
  pactDir: string;
  /** With `--publish-results`: the pacts come from this broker and the verification results go back to it. */
  pactBroker: BrokerSource | undefined;
}

export type VerifyOptionsInput = Pick<
  VerifyOptions,
  "target" | "at" | "reader" | "organizationSlug" | "formType" | "formSlug"
> &
  Partial<Omit<VerifyOptions, "target" | "at" | "reader" | "organizationSlug" | "formType" | "formSlug">>;

export const DEFAULTS = Object.freeze({
  maxPages: 10_000,
  crawlTimeLimitMs: 10 * 60_000,
  requestTimeoutMs: 30_000,
  notificationTimeoutMs: 5_000,
  seededEntries: 45,
});

/** The target's base URL without a trailing slash; a usage error for anything but an http(s) host root. */
export function normalizeTarget(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AssopayError("usage", `--target must be an http(s) URL, got "${text}"`, {
      hint: "for example --target https://api.helloasso-sandbox.com",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AssopayError("usage", `--target must be an http(s) URL, got "${text}"`, {
      hint: "for example --target http://127.0.0.1:3000",
    });
  }
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  if (/\/v[35]$/i.test(base)) {
    throw new AssopayError("usage", `--target must be the host root, not the API prefix: "${text}"`, {
      hint: `use --target ${base.replace(/\/v[35]$/i, "")} (the token endpoint sits at the root)`,
    });
  }
  return base;
}

function normalizeStateUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url.toString();
  } catch {
    // reported below
  }
  throw new AssopayError("usage", `--state-url must be an http(s) URL, got "${text}"`, {
    hint: "for example --state-url http://127.0.0.1:3000/_states",
  });
}

/** Fills the defaults, checks the numbers and freezes the result. */
export function resolveOptions(input: VerifyOptionsInput): VerifyOptions {
  const positive = (name: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) {
      throw new AssopayError("usage", `${name} must be a whole number above 0, got ${value}`);
    }
    return value;
  };
  const resolved: VerifyOptions = {
    target: normalizeTarget(input.target),
    embedded: input.embedded ?? false,
    stateUrl: input.stateUrl === undefined ? undefined : normalizeStateUrl(input.stateUrl),
    at: input.at,
    reader: Object.freeze({ ...input.reader }),
    admin: input.admin ? Object.freeze({ ...input.admin }) : undefined,
    organizationSlug: input.organizationSlug,
    formType: input.formType,
    formSlug: input.formSlug,
    only: Object.freeze([...(input.only ?? [])]),
    planned: input.planned ?? "fail",
    maxPages: positive("maxPages", input.maxPages ?? DEFAULTS.maxPages),
    crawlTimeLimitMs: positive("crawlTimeLimitMs", input.crawlTimeLimitMs ?? DEFAULTS.crawlTimeLimitMs),
    requestTimeoutMs: positive("requestTimeoutMs", input.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs),
    notificationTimeoutMs: positive(
      "notificationTimeoutMs",
      input.notificationTimeoutMs ?? DEFAULTS.notificationTimeoutMs,
    ),
    pageSize: input.pageSize === undefined ? undefined : positive("pageSize", input.pageSize),
    seededEntries: positive("seededEntries", input.seededEntries ?? DEFAULTS.seededEntries),
    pactDir: input.pactDir ?? join(contractsDir(), "pacts"),
    pactBroker: input.pactBroker ? Object.freeze({ ...input.pactBroker }) : undefined,
  };
  return Object.freeze(resolved);
}
