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
}

/** What crosses to the worker for one exchange besides its bodies (sent as JSON: far cheaper to copy). */
export type WireMeta = Omit<CapturedNotification, "requestBody" | "responseBody" | "startedAt"> & {
  startedAt: number;
  notification: boolean;
  /** The interaction id it gets in the cassette (given on the proxy's thread, in journal order). */
  id: number;
};

/**
 * A batch of exchanges: `metas` is the JSON of a `WireMeta[]`; `bodies` holds the request and response
 * body of each, one after the other (transferred, not copied), and `bounds` where each starts and ends.
 */
export type ToWorker =
  | { kind: "batch"; metas: string; bodies: ArrayBuffer; bounds: number[] }
  | { kind: "close" };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "events"; events: ProxyEvent[] }
  /** A batch was written (or handed to the writer): `bytes` is what the host counted for it. */
  | { kind: "progress"; bytes: number }
  | { kind: "closed"; recorded: number; events: ProxyEvent[] };
