import { AssopayError } from "../core/errors.js";
import type { Command } from "./command.js";

/** A verb whose capability has not landed yet: says so and exits 2. It never pretends to work. */
export function notBuilt(name: string, summary: string, issue: number): Command {
  const help = `assopay ${name}: ${summary}\n\nNot built yet (tracked as issue ${issue}). Running it exits with code 2.\n`;
  return {
    name,
    summary: `${summary} (not built yet)`,
    help,
    async run() {
      throw new AssopayError("not-built", `assopay ${name} is not built yet`, {
        hint: `it is tracked as issue ${issue}; 'assopay --help' lists the verbs that work`,
      });
    },
  };
}
