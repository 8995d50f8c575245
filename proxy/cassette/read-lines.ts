import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { AssopayError } from "../../core/errors.js";
import { openInput } from "../../core/input-file.js";

/** The longest line read (characters): a body of 50 MB, base64-encoded, fits several times over. */
const MAX_LINE_CHARS = 256 * 1024 * 1024;

function lineTooLong(path: string, line: number): AssopayError {
  return new AssopayError(
    "bad-cassette",
    `line ${line} is longer than ${MAX_LINE_CHARS} characters: this is not a cassette the recorder wrote`,
    {
      location: { file: path, line },
      hint: "check the path: a cassette is a YAML file written by 'assopay record'",
    },
  );
}

/** A read that failed once the file was open (an I/O error): the file and why. */
function unreadable(path: string, error: unknown): AssopayError {
  return new AssopayError("bad-cassette", `cannot read the cassette: ${(error as Error).message}`, {
    location: { file: path },
    hint: "check the file system the cassette is on, then try again",
    cause: error,
  });
}

/** How much of the file is read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file as a stream of lines (split on "\n"), handing each to `onLine`: a file of any size is read
 * without holding its text whole. An unreadable file, or a line longer than any cassette holds, is an
 * `AssopayError` ('bad-cassette') naming the file (and the line); one thrown by `onLine` passes through.
 *
 * The file is read through a `FileHandle`, a megabyte at a time, not through a read stream: a replay that
 * had read a 36 MB cassette through `fs.createReadStream` then served every request with about 25% more
 * CPU than one that had read it this way (bench/history/performance-log.md, "replay flat from 10 to 100,000").
 *
 * @example
 * await readLines("recordings/crawl.yaml", (line) => splitter.push(line));
 */
export async function readLines(path: string, onLine: (line: string) => void): Promise<void> {
  const handle: FileHandle = await openInput(path, "bad-cassette", "cassette");
  const decoder = new StringDecoder("utf8");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // The start of a line not ended yet, in pieces (a long base64 line spans many chunks).
  let pending: string[] = [];
  let pendingChars = 0;
  let lineNo = 0;
  const take = (chunk: string) => {
    const lines = chunk.split("\n");
    if (lines.length === 1) {
      pending.push(chunk);
      pendingChars += chunk.length;
      if (pendingChars > MAX_LINE_CHARS) throw lineTooLong(path, lineNo + 1);
      return;
    }
    lines[0] = pending.join("") + lines[0];
    const last = lines.pop() ?? "";
    pending = [last];
    pendingChars = last.length;
    lineNo += lines.length;
    for (const line of lines) onLine(line);
  };
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      take(decoder.write(buffer.subarray(0, bytesRead)));
    }
    take(decoder.end());
    const last = pending.join("");
    if (last !== "") onLine(last);
  } catch (error) {
    // Only a failure of the file system is about the file; anything else passes through as it is.
    if (error instanceof Error && "syscall" in error) throw unreadable(path, error);
    throw error;
  } finally {
    await handle.close();
  }
}
