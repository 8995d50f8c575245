import { stringify } from "yaml";
import type { DataFile } from "./data-file.js";

/**
 * A data file's text: what `--print-data` writes, so data derived from a recording can be edited and
 * kept (docs/sandbox.md, "Your own data"). `--data` reads it back as it is.
 */
export function printDataFile(data: DataFile, from: readonly string[]): string {
  const header = [
    '# assopay sandbox data file (docs/sandbox.md, "Your own data")',
    ...(from.length > 0 ? [`# derived from: ${from.join(", ")}`] : []),
    "# What it leaves out is generated; run it with: assopay sandbox --data THIS_FILE",
    "",
  ].join("\n");
  return `${header}${stringify(data, { lineWidth: 0 })}`;
}
