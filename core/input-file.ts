import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { AssopayError, type ErrorCode } from "./errors.js";

/**
 * What a path is when it is not a regular file, in a few words; undefined for a regular file. A FIFO
 * with no writer would hang a reader forever, a device (`/dev/zero`) never ends: inputs are files.
 */
function notRegular(stats: Stats): string | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO (a named pipe)";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

/** The error for an input that cannot be read: the path, why, and a hint that fits. */
/** The hint for a folder given where a file was due: "pass a cassette file", "pass a HAR file" (not "file file"). */
const folderHint = (what: string) => `pass a ${what.endsWith("file") ? what : `${what} file`}, not a folder`;

function inputError(file: string, code: ErrorCode, what: string, error: unknown): AssopayError {
  const errno = (error as NodeJS.ErrnoException).code;
  // Opening a socket fails with ENXIO: it is one of the kinds refused, said as such.
  const reason = errno === "ENXIO" ? "it is a socket" : (error as Error).message;
  const hint =
    errno === "EISDIR"
      ? folderHint(what)
      : errno === "EACCES" || errno === "EPERM"
        ? "the file is not readable by this user: check its permissions"
        : errno === "ENXIO"
          ? "pass a regular file"
          : "check the path";
  return new AssopayError(code, `cannot read the ${what}: ${reason}`, {
    location: { file },
    hint,
    cause: error,
  });
}

function refusal(file: string, code: ErrorCode, what: string, kind: string): AssopayError {
  const folder = kind === "a folder";
  return new AssopayError(code, `cannot read the ${what}: ${file} is ${kind}, not a regular file`, {
    location: { file },
    hint: folder
      ? folderHint(what)
      : "pass a regular file: assopay reads its inputs whole, and a pipe or a device may never end",
  });
}

/** Opening flags that never wait: a FIFO without a writer opens at once (and is then refused). */
const NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The one way the tool opens a file the user named as an input (a cassette, a data file, a timeline,
 * an OpenAPI document, a Pact file): opened without waiting, and refused up front unless it is a regular
 * file (a FIFO, a device, a socket, a folder), an `AssopayError` with `code` (exit 2). The caller closes
 * the handle.
 *
 * @example
 * const handle = await openInput("session.yaml", "bad-cassette", "cassette");
 */
export async function openInput(file: string, code: ErrorCode, what: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, NO_WAIT);
  } catch (error) {
    throw inputError(file, code, what, error);
  }
  const kind = notRegular(await handle.stat());
  if (kind === undefined) return handle;
  await handle.close();
  throw refusal(file, code, what, kind);
}

/** {@link openInput}, then the whole text (UTF-8), synchronously: for inputs read whole. */
export function readInputText(file: string, code: ErrorCode, what: string): string {
  let fd: number;
  try {
    fd = openSync(file, NO_WAIT);
  } catch (error) {
    throw inputError(file, code, what, error);
  }
  try {
    const kind = notRegular(fstatSync(fd));
    if (kind !== undefined) throw refusal(file, code, what, kind);
    return readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof AssopayError) throw error;
    throw inputError(file, code, what, error);
  } finally {
    closeSync(fd);
  }
}
