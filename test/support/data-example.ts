import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../core/paths.js";

/** The commented example of docs/sandbox.md ("Your own data"), exactly as the doc shows it. */
export function docExample(): { text: string; file: string } {
  const file = join(packageRoot(), "docs", "sandbox.md");
  const doc = readFileSync(file, "utf8");
  const match = /<!-- data-file-example[^>]*-->\n```yaml\n([\s\S]*?)```/.exec(doc);
  if (!match?.[1]) throw new Error("docs/sandbox.md has no data-file example");
  return { text: match[1], file };
}
