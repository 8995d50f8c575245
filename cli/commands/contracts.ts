import type { Command } from "../command.js";

export const contractsCommand: Command = {
  name: "contracts",
  summary: "Summarise the contract and write the Pact files to contracts/pacts/",
  help: "placeholder",
  async run(context) {
    context.stdout.write("contracts: placeholder\n");
    return 0;
  },
};
