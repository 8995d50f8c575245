import { expect } from "vitest";
import { credentialsEnv, type RunningSandbox } from "../../sandbox/index.js";

/**
 * A target where nothing listens (port 9) with made-up credentials: verify stops on its flags or on
 * the target not answering, before any check.
 */
export const UNREACHABLE_TARGET_ENV: Readonly<Record<string, string>> = {
  ASSOPAY_TARGET: "http://127.0.0.1:9",
  ASSOPAY_CLIENT_ID: "a",
  ASSOPAY_CLIENT_SECRET: "b",
  ASSOPAY_ORG: "o",
  ASSOPAY_FORM_TYPE: "Event",
  ASSOPAY_FORM_SLUG: "f",
};

/** The environment that points verify at a running sandbox: its URL, credentials and state URL if it has one. */
export function targetEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    ASSOPAY_TARGET: sandbox.url,
    ...credentialsEnv(sandbox.credentials),
    ...(sandbox.stateUrl ? { ASSOPAY_STATE_URL: sandbox.stateUrl } : {}),
  };
}

/** Fails unless `help` names each of `words` (flags, variables, headings). */
export function expectInHelp(help: string, words: readonly string[]): void {
  for (const word of words) expect(help).toContain(word);
}
