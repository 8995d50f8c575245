import { stat } from "node:fs/promises";
import { type Problem, problem } from "../../core/http/problem.js";
import type { ProxyEventSink } from "../events.js";

/**
 * The default bound on a cassette's size: 256 MiB. Replay holds every interaction in memory; at this size
 * it loads in a few seconds with the default Node.js heap.
 */
export const DEFAULT_MAX_CASSETTE_BYTES = 256 * 1024 * 1024;

/** The share of the bound at which the recorder warns that the cassette is nearly full. */
const WARN_AT = 0.8;

/** How often, at most, the cassette's size on disk is looked at again (milliseconds). */
const LOOK_EVERY_MS = 200;

/** Where a cassette stands against its bound. */
type Standing = "room" | "nearly-full" | "full";

/**
 * Watches a cassette's size on disk against `--max-cassette-bytes`. The size is read again at most every
 * {@link LOOK_EVERY_MS} ms, in the background, when requests come, so checking costs nothing on the hot
 * path; the file can therefore pass the bound by what is recorded in that time. At 80% of the bound the
 * recorder warns once; at the bound it stops recording: every new request gets a 507 problem (nothing is
 * forwarded, nothing is written) and the recorder says so once. Start a new cassette to go on. What is
 * recorded but not yet in the cassette counts too (under load the cassette lags behind the journal), and
 * only that: the journal keeps what is already converted until the recorder is idle, and counting it
 * would stop a long recording at about half its bound.
 */
export interface CassetteBudget {
  /** The problem to answer a new request with once the cassette is full; undefined while there is room. */
  refusal(): Problem | undefined;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `pending`: the bytes recorded but not yet in the cassette (the recording worker's backlog).
 *
 * @example
 * const budget = createCassetteBudget("recordings/crawl.yaml", 268_435_456, console.error, () => 0);
 * const refused = budget.refusal(); // undefined while the cassette has room
 */
export function createCassetteBudget(
  cassette: string,
  maxBytes: number,
  onEvent: ProxyEventSink,
  pending: () => number,
): CassetteBudget {
  let standing: Standing = "room";
  let lookedAt = 0;
  let looking = false;

  const judge = (size: number) => {
    const next: Standing = size >= maxBytes ? "full" : size >= maxBytes * WARN_AT ? "nearly-full" : "room";
    if (next === standing) return;
    const previous = standing;
    standing = next;
    if (next === "nearly-full" && previous === "room") {
      onEvent({
        kind: "warning",
        message: `the cassette ${cassette} is at ${mib(size)}, ${Math.round((size / maxBytes) * 100)}% of --max-cassette-bytes (${mib(maxBytes)}): at the bound the recorder stops recording; start a new cassette soon`,
      });
    } else if (next === "full") {
      onEvent({
        kind: "warning",
        message: `the cassette ${cassette} reached --max-cassette-bytes (${mib(size)} of ${mib(maxBytes)}): recording stopped; new requests get 507 and are not forwarded. Stop the recorder and record on into a new cassette (--cassette OTHER.yaml), or raise --max-cassette-bytes`,
      });
    }
  };

  const look = () => {
    const now = Date.now();
    if (looking || now - lookedAt < LOOK_EVERY_MS) return;
    looking = true;
    lookedAt = now;
    stat(cassette).then(
      (info) => {
        looking = false;
        judge(info.size + pending());
      },
      () => {
        looking = false;
      },
    );
  };

  return {
    refusal() {
      look();
      if (standing !== "full") return undefined;
      return problem(
        "cassette-full",
        507,
        "Cassette full",
        `the cassette reached --max-cassette-bytes (${maxBytes} bytes); this request was not forwarded or recorded`,
        { cassette, maxCassetteBytes: maxBytes },
      );
    },
  };
}
