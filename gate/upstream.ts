import type { Contract } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { AssopayError } from "../core/errors.js";
import { startReplay } from "../proxy/index.js";
import { credentialsEnv, type SandboxData, type Shapes, startSandbox } from "../sandbox/index.js";
import { cassetteEnv } from "./cassette-env.js";
import type { Scenario } from "./scenarios.js";

/**
 * What the layer stands in front of: a fresh sandbox per scenario, a replay of cassettes, or a running
 * server of the user's choosing (the provider's sandbox, a mock, a replay run elsewhere).
 */
export type UpstreamSpec =
  | {
      readonly kind: "sandbox";
      readonly entries: number;
      readonly seed: number;
      /** Your own data (`--data`): the sandbox announces its main form to the command. */
      readonly data?: SandboxData;
      /** Whose shape wins where the seed and the provider's document disagree (`--shapes`). */
      readonly shapes: Shapes;
    }
  | { readonly kind: "replay"; readonly cassettes: readonly string[] }
  | {
      readonly kind: "url";
      /** The service's root: token at `URL/oauth2/token`, API under `URL/v5` (a path prefix is kept). */
      readonly url: string;
      /** The login variables the command gets, from the caller (flags or environment). */
      readonly login: Readonly<Record<string, string>>;
    };

/** A running upstream and the login details the command gets (`ASSOPAY_*` without the URLs). */
export interface RunningUpstream {
  readonly url: string;
  readonly login: Readonly<Record<string, string>>;
  /** Rewrites a token request's body before it goes upstream (a replay swaps the stand-in secret). */
  readonly tokenBody?: (body: Buffer) => Buffer;
  close(): Promise<void>;
}

/** The login variables the command gets; with `--upstream` the first five are required. */
const LOGIN = [
  "ASSOPAY_CLIENT_ID",
  "ASSOPAY_CLIENT_SECRET",
  "ASSOPAY_ORG",
  "ASSOPAY_FORM_TYPE",
  "ASSOPAY_FORM_SLUG",
  "ASSOPAY_ADMIN_CLIENT_ID",
  "ASSOPAY_ADMIN_CLIENT_SECRET",
] as const;

/**
 * The login variables for a server of the user's choosing, from the caller's environment: a reader
 * client and the form to crawl are required; the admin client defaults to the reader.
 */
export function urlLogin(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const missing = LOGIN.slice(0, 5).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new AssopayError("usage", `assopay gate --upstream needs ${missing.join(", ")}`, {
      hint: "give them as variables, or as --client-id, --client-secret, --organization, --form-type, --form-slug",
    });
  }
  const login: Record<string, string> = {};
  for (const name of LOGIN) login[name] = env[name] ?? "";
  login.ASSOPAY_ADMIN_CLIENT_ID ||= login.ASSOPAY_CLIENT_ID ?? "";
  login.ASSOPAY_ADMIN_CLIENT_SECRET ||= login.ASSOPAY_CLIENT_SECRET ?? "";
  return login;
}

/**
 * Why an upstream cannot play a scenario, or `undefined` when it can: the gate sets the date of a sandbox
 * or a replay, never of a running server; only the sandbox's listings grow.
 */
export function cannotPlay(kind: UpstreamSpec["kind"], scenario: Scenario): string | undefined {
  if (scenario.date.kind !== "given" && kind === "url") return "a running server keeps its own date";
  if (scenario.growing && kind !== "sandbox") return "only the embedded sandbox's listings grow";
  return undefined;
}

/**
 * Starts the upstream of one scenario at its date. The sandbox announces its own credentials; a replay
 * takes them from the caller's environment (`ASSOPAY_CLIENT_ID` …), else from what the cassettes show;
 * a running server is already there, with the login the caller gave.
 */
export async function startUpstream(
  spec: UpstreamSpec,
  scenario: Scenario,
  at: IsoDay,
  contract: Contract,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunningUpstream> {
  switch (spec.kind) {
    case "sandbox": {
      const sandbox = await startSandbox({
        port: 0,
        at,
        entries: spec.entries,
        seed: spec.seed,
        contract,
        shapes: spec.shapes,
        growing: scenario.growing,
        ...(spec.data ? { data: spec.data } : {}),
      });
      return { url: sandbox.url, login: credentialsEnv(sandbox.credentials), close: () => sandbox.close() };
    }
    case "replay": {
      const replay = await startReplay({ cassettes: spec.cassettes, port: 0, at, contract });
      const login = await cassetteEnv(spec.cassettes, contract, env);
      return { url: replay.url, login: login.env, tokenBody: login.tokenBody, close: () => replay.close() };
    }
    case "url":
      return { url: spec.url, login: spec.login, close: async () => undefined };
  }
}
