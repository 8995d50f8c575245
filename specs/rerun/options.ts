import { AssopayError } from "../../core/errors.js";
import { type Credentials, DEFAULTS, normalizeTarget, type VerifyOptions } from "../runner/options.js";

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
