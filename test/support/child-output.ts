import type { ChildProcess } from "node:child_process";

/** What a child process printed, kept as it comes, and the first match of the line that says it is ready. */
export interface Printed {
  /** The pattern's first group, once the child printed it (on stdout or stderr). */
  found: Promise<string>;
  /** Everything it printed so far. */
  output(): string;
}

/**
 * Collects what `child` prints on both streams and waits for `pattern` (with one group) in it. `found`
 * rejects with everything printed so far when the child exits first, or when `timeoutMs` passes (none
 * when undefined); `name` says whose output it is in those errors.
 *
 * @example
 * const printed = whenPrinted(child, /listening on (http:\/\/\S+)/, "replay", 30_000);
 * const url = await printed.found;
 */
export function whenPrinted(child: ChildProcess, pattern: RegExp, name: string, timeoutMs?: number): Printed {
  let out = "";
  const found = new Promise<string>((resolve, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => reject(new Error(`${name} did not print ${pattern} within ${timeoutMs / 1000} s:\n${out}`)),
            timeoutMs,
          );
    const seen = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const match = pattern.exec(out)?.[1];
      if (match === undefined) return;
      clearTimeout(timer);
      resolve(match);
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code ?? signal}:\n${out}`));
    });
  });
  return { found, output: () => out };
}
