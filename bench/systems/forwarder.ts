// assopay record's own forwarding and body capture (its forwarder, as the recorder runs it), and nothing
// of the recording worker, in two forms:
// - the ceiling (no --journal): every captured exchange dropped. No recorder built on this proxy path can
//   be faster here; the gap between this and the bare proxy is what forwarding through it costs, the gap
//   between this and assopay record what writing the cassette costs.
// - the floor (--journal FILE): each exchange appended to the journal (the one write the durability rule
//   asks for, before the response ends) and nothing else: no worker, no scan, no YAML, no second write. The
//   journal is emptied each time it reaches 16 MiB, where the recorder's is emptied or sealed (JournalQueue,
//   proxy/record/worker-host.ts), so both write on pages freed a moment before rather than on fresh ones
//   (bench/history/performance-log.md). Any recorder that keeps a secret-free cassette does at least this
//   much work per exchange on this path, and then scans the body.
// Usage: node --import tsx bench/systems/forwarder.ts --upstream URL [--journal FILE]
import { createServer } from "node:http";
import { ignoreEvents } from "../../proxy/events.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../proxy/options.js";
import { createForwarder, type Done } from "../../proxy/record/forwarder.js";
import { frameMeta, Journal } from "../../proxy/record/journal.js";
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from "../../proxy/record/options.js";
import { argument, serve } from "./listen.js";

const journalFile = argument("--journal");
const journal = journalFile === undefined ? undefined : Journal.open(journalFile);
const forwarder = createForwarder({
  upstream: new URL(argument("--upstream") ?? ""),
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
  onEvent: ignoreEvents,
});

/** The journal's size at which it is emptied. */
const CLEAR_AT = 16 * 1024 * 1024;
let id = 0;
const done: Done = (outcome) => {
  if (!outcome.ok || !journal) return true;
  const x = outcome.exchange;
  journal.append(frameMeta(id++, x), x.requestBody, x.responseBody);
  if (journal.size >= CLEAR_AT) journal.clear();
  return true;
};
const server = createServer((request, response) => forwarder.forward(request, response, done));
await serve(server, () => {
  forwarder.close();
  journal?.close(true);
});
