import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { adminCredentials, type Credentials } from "../runner/options.js";
import type { PlannedPolicy } from "../runner/types.js";
import { type RerunOptions, resolveRerunOptions } from "./options.js";

/** What the `verify` verb gathered from its flags, for a rerun. */
export interface RerunSettings {
  cassettes: readonly string[];
  /** `--target`; `undefined` when the embedded sandbox is the target. */
  target: string | undefined;
  at: IsoDay;
  planned: PlannedPolicy;
  limits: { requestTimeoutMs?: number; runTimeoutMs?: number };
  /** A flag's value, else its environment variable's. */
  read: (flag: string, variable: string) => string | undefined;
  /** The embedded sandbox started for the run, with its own clients. */
  sandbox: { url: string; credentials: { reader: Credentials; admin: Credentials } } | undefined;
}

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
