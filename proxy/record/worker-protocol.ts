import type { ProxyEvent } from "../events.js";
import type { CapturedNotification } from "./capture.js";

/** What the recording worker is started with. */
export interface WorkerInit {
  /** The cassette's file descriptor, opened `O_APPEND` and locked by the main thread. */
  fd: number;
  nextId: number;
  salt: string | undefined;
  pii: boolean;
  signatureKeys: readonly string[];
  /** Whether to report every recorded exchange (problems are always reported). */
  events: boolean;
  /** The journal the worker reads exchanges from (see `journal-tail.ts`), and its size at the start. */
  journal: string;
  journalFrom: number;
}

/** What crosses to the worker for one exchange besides its bodies (sent as JSON: far cheaper to copy). */
export type WireMeta = Omit<CapturedNotification, "requestBody" | "responseBody" | "startedAt"> & {
  startedAt: number;
  notification: boolean;
  /** The interaction id it gets in the cassette (given on the proxy's thread, in journal order). */
  id: number;
};

/**
 * `journal`: the journal now reaches `upTo` (in `generation`): read the exchanges up to there.
 * `batch` (only once the journal has failed): exchanges in memory; `metas` is the JSON of a `WireMeta[]`,
 * `bodies` holds the request and response body of each, one after the other (transferred, not copied),
 * and `bounds` where each starts and ends.
 */
export type ToWorker =
  | { kind: "journal"; generation: number; upTo: number }
  | { kind: "batch"; metas: string; bodies: ArrayBuffer; bounds: number[] }
  | { kind: "close" };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "events"; events: ProxyEvent[] }
  /** Secrets the worker's redactor learned since its last message, for the log's redactor. */
  | { kind: "learned"; secrets: string[] }
  /** A batch was written (or handed to the writer): `bytes` is what the host counted for it. */
  | { kind: "progress"; bytes: number }
  /** Every exchange of the journal up to `upTo` (of `generation`) is in the cassette (the page cache). */
  | { kind: "converted"; generation: number; upTo: number }
  | { kind: "closed"; recorded: number; events: ProxyEvent[] };
