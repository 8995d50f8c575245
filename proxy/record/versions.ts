import { copyFile, link, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { AssopayError } from "../../core/errors.js";
import { CASSETTE_FORMAT } from "../cassette/format.js";
import { exists } from "../cassette/writer.js";

/** Where `--mode all` records before the file replaces the cassette: `<cassette>.recording`. */
export const RECORDING_SUFFIX = ".recording";

/** Earlier versions kept by `--mode all` unless told otherwise. */
export const DEFAULT_KEEP = 3;

const VERSION = /^\.previous-(\d{8}T\d{9}Z)$/;

/** `<cassette>.previous-YYYYMMDDTHHMMSSmmmZ`: sorts as it was replaced. */
function versionName(cassette: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, "");
  return `${cassette}.previous-${stamp}`;
}

/** The earlier versions of a cassette, oldest first. */
export async function versionsOf(cassette: string): Promise<string[]> {
  const name = basename(cassette);
  const names = await readdir(dirname(cassette)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(name) && VERSION.test(n.slice(name.length)))
    .sort()
    .map((n) => join(dirname(cassette), n));
}

/**
 * Puts a finished `--mode all` recording in place: the current cassette (if any) is kept as a version
 * (a hard link, so it exists under both names until the rename), the recording is renamed over it (one
 * atomic step), and versions beyond the `keep` newest are deleted. Returns the version made, if any.
 */
export async function promoteRecording(
  cassette: string,
  keep: number,
  at = new Date(),
): Promise<string | undefined> {
  let kept: string | undefined;
  if (await exists(cassette)) {
    // Two versions in one millisecond: the later one is named a millisecond on.
    for (let ms = at.getTime(); ; ms++) {
      kept = versionName(cassette, new Date(ms));
      if (!(await exists(kept))) break;
    }
    const name = kept;
    await link(cassette, name).catch(() => copyFile(cassette, name));
  }
  await rename(`${cassette}${RECORDING_SUFFIX}`, cassette);
  const versions = await versionsOf(cassette);
  for (const old of versions.slice(0, Math.max(0, versions.length - keep))) {
    await unlink(old).catch(() => undefined);
  }
  return kept;
}

/**
 * Refuses to record over a file that is not a cassette (exit 2): its first document must name the
 * cassette format. An empty file holds nothing to lose and passes.
 */
export async function checkIsCassette(path: string): Promise<void> {
  if ((await stat(path).catch(() => undefined))?.isDirectory()) {
    throw new AssopayError("usage", `--cassette ${path} is a folder, not a cassette file`, {
      location: { file: path },
      hint: `name a file, for example --cassette ${join(path, "session.yaml")}`,
    });
  }
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return;
  const head = Buffer.alloc(16 * 1024);
  let length: number;
  try {
    ({ bytesRead: length } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  if (length === 0) return;
  const text = head.toString("utf8", 0, length);
  const firstDocument = text.split(/^(?:---|\.\.\.)\s*$/m).find((part) => part.trim() !== "") ?? "";
  if (
    new RegExp(`^format:\\s*["']?${CASSETTE_FORMAT.replace("/", "\\/")}["']?\\s*$`, "m").test(firstDocument)
  ) {
    return;
  }
  throw new AssopayError("usage", `refusing to record over ${path}: it is not an assopay cassette`, {
    location: { file: path, line: 1 },
    hint: `its first document has no "format: ${CASSETTE_FORMAT}"; pass --cassette a new file name (or an existing cassette)`,
  });
}
