import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Whether this process was started with `gc` exposed (then it is left exposed). */
function exposedAtStart(): boolean {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  return flags.some((flag) => flag === "--expose-gc" || flag === "--expose_gc");
}

/**
 * A full garbage collection, now. For a server that has just loaded much data it keeps only a little of:
 * the rest is garbage in the old generation that V8 reclaims only when that generation fills, and a
 * server answering requests rarely fills it, so it would carry the garbage (and slower scavenges) for
 * as long as it runs. `gc` is exposed to one new context for the call and hidden again after it, unless
 * the process was started with `--expose-gc`.
 *
 * @example
 * const index = buildIndex(await loadCassette(file)); // the cassette itself is garbage now
 * collectGarbage();
 */
export function collectGarbage(): void {
  // RegExp's legacy statics (`RegExp.input`, `RegExp.lastMatch`) hold the subject of the last match, and
  // a line read from a file is a slice that holds the whole file's text: a match on "" lets it go.
  /(?:)/.exec("");
  const exposed = exposedAtStart();
  if (!exposed) setFlagsFromString("--expose-gc");
  try {
    (runInNewContext("gc") as () => void)();
  } finally {
    if (!exposed) setFlagsFromString("--no-expose-gc");
  }
}
