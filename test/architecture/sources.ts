import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { packageRoot } from "../../core/paths.js";

/** The TypeScript files under a folder of the project, as paths from the project root. */
export function sources(dir: string): string[] {
  const root = packageRoot();
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** The project files a file imports or re-exports from, as paths from the project root. */
export function importedPaths(file: string, text: string): string[] {
  const root = packageRoot();
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\sfrom\s+["']([^"']+)["']/gms)].map(
    (m) => m[1] ?? "",
  );
  return specifiers.filter((s) => s.startsWith(".")).map((s) => relative(root, join(root, file, "..", s)));
}

/** A file of the project, read. */
export function read(file: string): string {
  return readFileSync(join(packageRoot(), file), "utf8");
}
