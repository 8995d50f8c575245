import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { HOSTS_VARIABLE, TARGET_VARIABLE } from "../proxy/intercept/hosts.js";

/** This module's own extension: `.ts` when the tool runs from its sources (tsx, vitest), else `.js`. */
const OWN_EXTENSION = import.meta.url.endsWith(".ts") ? ".ts" : ".js";

/** `--import X` for `NODE_OPTIONS`, the path quoted (NODE_OPTIONS splits on spaces outside quotes). */
const importOption = (url: URL) => `--import "${fileURLToPath(url).replaceAll('"', '\\"')}"`;

/**
 * The variables that send a Node command's requests for `hosts` to the layer: the intercept preload of
 * `assopay-contract/intercept`, by its path next to this module (the command's project need not install
 * the package), appended to the `NODE_OPTIONS` it inherits. From the sources, tsx is loaded first.
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
  const preload = new URL(`../proxy/intercept/register${OWN_EXTENSION}`, import.meta.url);
  const imports =
    OWN_EXTENSION === ".ts"
      ? [importOption(pathToFileURL(createRequire(import.meta.url).resolve("tsx"))), importOption(preload)]
      : [importOption(preload)];
  return {
    [HOSTS_VARIABLE]: hosts.join(","),
    [TARGET_VARIABLE]: layerUrl,
    NODE_OPTIONS: [inherited, ...imports].filter((part) => part !== undefined && part !== "").join(" "),
  };
}
