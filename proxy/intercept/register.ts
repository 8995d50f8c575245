/**
 * The preload: `node --import assopay-contract/intercept app.js` (or in `NODE_OPTIONS`) sends the
 * application's requests for the hosts in `ASSOPAY_INTERCEPT_HOSTS` to the recorder or replay server in
 * `ASSOPAY_INTERCEPT_TARGET`, as `assopay record|replay --intercept HOST` prints them. Without both, the
 * process stops with exit 2 rather than let the application reach the live service. The `assopay`
 * command itself is never intercepted (a recorder would otherwise forward to itself).
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HOSTS_VARIABLE, splitHosts, TARGET_VARIABLE } from "./hosts.js";
import { installIntercept } from "./install.js";

function isAssopayItself(script: string | undefined): boolean {
  if (!script) return false;
  const own = ["../../cli/bin.js", "../../cli/bin.ts"].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  try {
    return own.includes(realpathSync(script));
  } catch {
    return false;
  }
}

if (!isAssopayItself(process.argv[1])) {
  const hosts = splitHosts(process.env[HOSTS_VARIABLE]);
  const target = process.env[TARGET_VARIABLE];
  try {
    if (hosts.length === 0 || !target) {
      throw new Error(
        `it needs ${HOSTS_VARIABLE} and ${TARGET_VARIABLE} (run 'assopay record --intercept HOST' and export what it prints)`,
      );
    }
    installIntercept({ hosts, target });
  } catch (error) {
    process.stderr.write(`assopay-contract/intercept: ${(error as Error).message}\n`);
    process.exit(2);
  }
}
