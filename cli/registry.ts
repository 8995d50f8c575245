import type { Command } from "./command.js";
import { contractsCommand } from "./commands/contracts.js";
import { sandboxCommand } from "./commands/sandbox.js";
import { verifyCommand } from "./commands/verify.js";
import { notBuilt } from "./not-built.js";

/**
 * Every verb of `assopay`, in the order `--help` lists them. A capability that has not landed is a
 * `notBuilt` entry; replace it with the real command when it lands.
 */
export function commands(): readonly Command[] {
  return [
    verifyCommand,
    sandboxCommand,
    notBuilt("record", "Record traffic through a proxy into a YAML cassette", 4),
    notBuilt("replay", "Serve recorded cassettes", 4),
    notBuilt("gate", "Judge an SDK's traffic against the consumer rules", 6),
    notBuilt("notify", "Send a battery of notifications to a webhook receiver", 6),
    contractsCommand,
  ];
}
