import type { ProxyEvent } from "../events.js";

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

/**
 * `journal`: the journal now reaches `upTo` (in `generation`): read the exchanges up to there. The journal
 * is the only way exchanges reach the worker.
 */
export type ToWorker = { kind: "journal"; generation: number; upTo: number } | { kind: "close" };

export type FromWorker =
  | { kind: "ready" }
  | { kind: "events"; events: ProxyEvent[] }
  /** Secrets the worker's redactor learned since its last message, for the log's redactor. */
  | { kind: "learned"; secrets: string[] }
  /**
   * Every exchange of the journal up to `upTo` (of `generation`) is in the cassette (the page cache);
   * `exchanges` were read up to there since the last such message.
   */
  | { kind: "converted"; generation: number; upTo: number; exchanges: number }
  | { kind: "closed"; recorded: number; events: ProxyEvent[] };
