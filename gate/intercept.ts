import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runnableEntry } from "../core/compiled.js";
import { HOSTS_VARIABLE, TARGET_VARIABLE } from "../proxy/intercept/hosts.js";

/** `--import X` for `NODE_OPTIONS`, the path quoted (NODE_OPTIONS splits on spaces outside quotes). */
const importOption = (url: URL) => `--import "${fileURLToPath(url).replaceAll('"', '\\"')}"`;

/**
 * The variables that send a Node command's requests for `hosts` to the layer: the intercept preload of
 * `assopay-contract/intercept`, by its path next to this module (the command's project need not install
 * the package), appended to the `NODE_OPTIONS` it inherits. From the sources, the compiled preload of a
 * current `dist/` (`runnableEntry`), else the source through tsx: a preload compiled by tsx in the
 * command left axios apps hanging on a cold tsx cache (test/gate/upstream.test.ts).
 *
 * @example
 * interceptEnv(["api.helloasso.com"], layer.url, process.env.NODE_OPTIONS);
 */
export function interceptEnv(
  hosts: readonly string[],
  layerUrl: string,
  inherited: string | undefined,
): Record<string, string> {
  if (hosts.length === 0) return {};
  const extension = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const preload = runnableEntry(
    new URL(`../proxy/intercept/hosts${extension}`, import.meta.url).href,
    "register",
  );
  const own = importOption(pathToFileURL(preload.file));
  const imports = preload.tsx
    ? [importOption(pathToFileURL(createRequire(import.meta.url).resolve("tsx"))), own]
    : [own];
  return {
    [HOSTS_VARIABLE]: hosts.join(","),
    [TARGET_VARIABLE]: layerUrl,
    NODE_OPTIONS: [inherited, ...imports].filter((part) => part !== undefined && part !== "").join(" "),
  };
}
