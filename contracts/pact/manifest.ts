import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { AssopayError } from "../../core/errors.js";

/** The file, in the output folder, that lists what `assopay contracts` wrote there. */
export const MANIFEST_NAME = ".assopay-pacts.manifest";

/** One file the generator wrote: its name in the folder and the SHA-256 of its text. */
export interface ManifestEntry {
  name: string;
  sha256: string;
}

/** Lowercase hex SHA-256 of a text, as the manifest records it. */
export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The manifest's exact text for a set of files (stable order, one trailing newline): the files written
 * by the last run, nothing else is ever touched.
 */
export function manifestText(files: readonly { name: string; text: string }[]): string {
  const manifest = {
    format: 1,
    generator: "assopay contracts",
    files: files.map((f) => ({ name: f.name, sha256: sha256(f.text) })),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The output folder, checked: it must be a folder (or not exist yet when `mayBeMissing`). A file or a
 * missing folder given to `--check` is a usage mistake (exit 2), never a stack trace.
 */
export function checkOutDir(dir: string, mayBeMissing: boolean): void {
  if (!existsSync(dir)) {
    if (mayBeMissing) return;
    throw new AssopayError("usage", `--out ${dir}: no such folder`, {
      hint: "give the folder holding the pact files (default contracts/pacts), or run without --check to write them",
    });
  }
  if (!statSync(dir).isDirectory()) {
    throw new AssopayError("usage", `--out ${dir}: is a file, not a folder`, {
      hint: "--out takes a folder; the pact files and their manifest are written inside it",
    });
  }
}

const isEntry = (value: unknown): value is ManifestEntry =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ManifestEntry).name === "string" &&
  /^[^/\\]+\.json$/.test((value as ManifestEntry).name) &&
  typeof (value as ManifestEntry).sha256 === "string";

/** The files the last run wrote in `dir` (none when there is no manifest yet). */
export function readManifest(dir: string): ManifestEntry[] {
  const file = join(dir, MANIFEST_NAME);
  if (!existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new AssopayError("bad-input", `not a JSON manifest: ${(error as Error).message}`, {
      location: { file },
      hint: "this file lists what 'assopay contracts' wrote; delete it only if you also delete those files",
    });
  }
  const files = (parsed as { files?: unknown } | null)?.files;
  if (!Array.isArray(files) || !files.every(isEntry)) {
    throw new AssopayError("bad-input", "the manifest has no valid 'files' list", {
      location: { file },
      hint: "each entry needs a 'name' (a *.json file of the folder) and a 'sha256'",
    });
  }
  return files;
}

/** Whether a file's text is a pact this generator wrote (for folders written before manifests existed). */
export function looksGenerated(text: string, consumer: string): boolean {
  try {
    const pact = JSON.parse(text) as { consumer?: { name?: unknown }; metadata?: { assopay?: unknown } };
    return pact.consumer?.name === consumer && typeof pact.metadata?.assopay === "object";
  } catch {
    return false;
  }
}
