import type { Contract } from "../contracts/index.js";
import type { IsoDay } from "../core/dates.js";
import { startReplay } from "../proxy/index.js";
import { credentialsEnv, type SandboxData, startSandbox } from "../sandbox/index.js";
import { cassetteEnv } from "./cassette-env.js";

/** What the layer stands in front of: a fresh sandbox per scenario, or a replay of cassettes. */
export type UpstreamSpec =
  | {
      readonly kind: "sandbox";
      readonly entries: number;
      readonly seed: number;
      /** Your own data (`--data`): the sandbox announces its main form to the command. */
      readonly data?: SandboxData;
    }
  | { readonly kind: "replay"; readonly cassettes: readonly string[] };

/** A running upstream and the login details the command gets (`ASSOPAY_*` without the URLs). */
export interface RunningUpstream {
  readonly url: string;
  readonly login: Readonly<Record<string, string>>;
  /** Rewrites a token request's body before it goes upstream (a replay swaps the stand-in secret). */
  readonly tokenBody: (body: Buffer) => Buffer;
  close(): Promise<void>;
}

/**
 * Starts the upstream of one scenario at its date. The sandbox announces its own credentials; a replay
 * takes them from the caller's environment (`ASSOPAY_CLIENT_ID` …), else from what the cassettes show.
 */
export async function startUpstream(
  spec: UpstreamSpec,
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
        ...(spec.data ? { data: spec.data } : {}),
      });
      return {
        url: sandbox.url,
        login: credentialsEnv(sandbox.credentials),
        tokenBody: (body) => body,
        close: () => sandbox.close(),
      };
    }
    case "replay": {
      const replay = await startReplay({ cassettes: spec.cassettes, port: 0, at, contract });
      const login = await cassetteEnv(spec.cassettes, contract, env);
      return { url: replay.url, login: login.env, tokenBody: login.tokenBody, close: () => replay.close() };
    }
  }
}
