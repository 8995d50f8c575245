import type { Command } from "./command.js";

/**
 * A verb of `assopay` by its name; its module (and all it imports) is loaded only when that verb is run or
 * its help asked for, so `assopay record` does not load verify's checks, nor `--version` anything.
 */
export interface Verb {
  readonly name: string;
  load(): Promise<Command>;
}

/** Every verb of `assopay`, in the order `--help` lists them; each lives in its own file in commands/. */
export function verbs(): readonly Verb[] {
  return [
    { name: "verify", load: async () => (await import("./commands/verify.js")).verifyCommand },
    { name: "sandbox", load: async () => (await import("./commands/sandbox.js")).sandboxCommand },
    { name: "record", load: async () => (await import("./commands/record.js")).recordCommand },
    { name: "replay", load: async () => (await import("./commands/replay.js")).replayCommand },
    { name: "gate", load: async () => (await import("./commands/gate.js")).gateCommand },
    { name: "notify", load: async () => (await import("./commands/notify.js")).notifyCommand },
    { name: "contracts", load: async () => (await import("./commands/contracts.js")).contractsCommand },
    { name: "openapi", load: async () => (await import("./commands/openapi.js")).openapiCommand },
    { name: "drift", load: async () => (await import("./commands/drift.js")).driftCommand },
    { name: "lint", load: async () => (await import("./commands/lint.js")).lintCommand },
    { name: "har", load: async () => (await import("./commands/har.js")).harCommand },
  ];
}

/** Every verb, loaded: what `assopay --help` lists (and the tests read). */
export function commands(): Promise<readonly Command[]> {
  return Promise.all(verbs().map((verb) => verb.load()));
}
