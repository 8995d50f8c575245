import { AssopayError } from "../../core/errors.js";
import {
  adminCredentials,
  type Credentials,
  DEFAULTS,
  normalizeTarget,
  type VerifyOptions,
} from "../runner/options.js";

/**
 * Everything a rerun needs, resolved once and frozen: what verify resolves of the target, the date and
 * the limits (`at` judges the target's answers; `runTimeoutMs` bounds the whole rerun), and the cassettes.
 */
export type RerunOptions = Pick<
  VerifyOptions,
  "target" | "embedded" | "at" | "planned" | "requestTimeoutMs" | "runTimeoutMs"
> & {
  /** The cassette files, re-sent in this order. */
  cassettes: readonly string[];
  /** Client whose tokens replace the recorded ones (and serve requests without a recorded token). */
  reader: Credentials;
  /** Client with `organization_admin`, for recorded token requests of such a client. */
  admin: Credentials | undefined;
};

/**
 * What a caller gives; the rest has defaults.
 *
 * @example
 * resolveRerunOptions({ cassettes: ["session.yaml"], target: "http://127.0.0.1:8080", at: "2025-07-01" as IsoDay,
 *   reader: { clientId: "id", clientSecret: "secret" } });
 */
export type RerunOptionsInput = Pick<RerunOptions, "cassettes" | "target" | "at" | "reader"> &
  Partial<Omit<RerunOptions, "cassettes" | "target" | "at" | "reader">>;

/** Fills the defaults, checks the target and freezes the result. */
export function resolveRerunOptions(input: RerunOptionsInput): RerunOptions {
  if (input.cassettes.length === 0) {
    throw new AssopayError("usage", "no cassette to re-send", { hint: "give --cassette FILE" });
  }
  return Object.freeze({
    cassettes: Object.freeze([...input.cassettes]),
    target: normalizeTarget(input.target),
    embedded: input.embedded ?? false,
    at: input.at,
    reader: Object.freeze({ ...input.reader }),
    admin: input.admin ? Object.freeze({ ...input.admin }) : undefined,
    planned: input.planned ?? "fail",
    requestTimeoutMs: input.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    runTimeoutMs: input.runTimeoutMs,
  });
}

/** What the `verify` verb gathered from its flags, for a rerun. */
export type RerunSettings = Pick<RerunOptions, "cassettes" | "at" | "planned"> & {
  /** `--target`; `undefined` when the embedded sandbox is the target. */
  target: string | undefined;
  limits: Partial<Pick<RerunOptions, "requestTimeoutMs" | "runTimeoutMs">>;
  /** A flag's value, else its environment variable's. */
  read: (flag: string, variable: string) => string | undefined;
  /** The embedded sandbox started for the run, with its own clients. */
  sandbox: { url: string; credentials: { reader: Credentials; admin: Credentials } } | undefined;
};

/**
 * The rerun's options from the verb's settings: the embedded sandbox's clients, or the given ones
 * (`--client-id`/`--client-secret` required with `--target`, the admin pair optional but whole).
 *
 * @example
 * rerunOptionsFrom({ cassettes: ["s.yaml"], target: "http://127.0.0.1:3000", at, planned: "fail",
 *   limits: {}, read: (flag) => flags[flag], sandbox: undefined });
 */
export function rerunOptionsFrom(settings: RerunSettings): RerunOptions {
  const { read, sandbox } = settings;
  const common = {
    cassettes: settings.cassettes,
    at: settings.at,
    planned: settings.planned,
    ...settings.limits,
  };
  if (sandbox) {
    return resolveRerunOptions({ ...common, target: sandbox.url, embedded: true, ...sandbox.credentials });
  }
  const clientId = read("client-id", "ASSOPAY_CLIENT_ID");
  const clientSecret = read("client-secret", "ASSOPAY_CLIENT_SECRET");
  if (!clientId || !clientSecret) {
    throw new AssopayError(
      "usage",
      "assopay verify --cassette --target needs --client-id and --client-secret",
      {
        hint: "give them as flags or as ASSOPAY_CLIENT_ID, ASSOPAY_CLIENT_SECRET",
      },
    );
  }
  return resolveRerunOptions({
    ...common,
    target: settings.target ?? "",
    reader: { clientId, clientSecret },
    admin: adminCredentials(read),
  });
}
