import type { Command } from "./command.js";
import { contractsCommand } from "./commands/contracts.js";
import { driftCommand } from "./commands/drift.js";
import { gateCommand } from "./commands/gate.js";
import { lintCommand } from "./commands/lint.js";
import { notifyCommand } from "./commands/notify.js";
import { openapiCommand } from "./commands/openapi.js";
import { recordCommand } from "./commands/record.js";
import { replayCommand } from "./commands/replay.js";
import { sandboxCommand } from "./commands/sandbox.js";
import { verifyCommand } from "./commands/verify.js";

/** Every verb of `assopay`, in the order `--help` lists them; each lives in its own file in commands/. */
export function commands(): readonly Command[] {
  return [
    verifyCommand,
    sandboxCommand,
    recordCommand,
    replayCommand,
    gateCommand,
    notifyCommand,
    contractsCommand,
    openapiCommand,
    driftCommand,
    lintCommand,
  ];
}
