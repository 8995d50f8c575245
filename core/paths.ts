import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's root folder, found by walking up from this module to the `package.json` named
 * `assopay-contract`. Works the same from the TypeScript sources and from the built `dist/`.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (parsed.name === "assopay-contract") return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("assopay-contract: cannot find the package root");
    dir = parent;
  }
}

/** The `contracts/` data folder (routes, timeline, schemas, pacts). */
export function contractsDir(): string {
  return join(packageRoot(), "contracts");
}

/** The package's version, from its manifest. */
export function packageVersion(): string {
  const parsed = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return parsed.version;
}
