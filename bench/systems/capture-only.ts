// A ceiling for recording: assopay record's own forwarding and body capture (its forwarder, as the
// recorder runs it), with every captured exchange dropped instead of handed to the recording worker.
// No recorder built on this proxy path can be faster here; the gap between this and the bare proxy is
// what forwarding through it costs, the gap between this and assopay record what writing the cassette costs.
// Usage: node --import tsx bench/systems/capture-only.ts --upstream URL
import { createServer } from "node:http";
import { ignoreEvents } from "../../proxy/events.js";
import { DEFAULT_MAX_BODY_BYTES } from "../../proxy/options.js";
import { createForwarder } from "../../proxy/record/forwarder.js";
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from "../../proxy/record/options.js";
import { closeOnSignal, listenAndAnnounce } from "./listen.js";

const upstream = new URL(process.argv[process.argv.indexOf("--upstream") + 1] ?? "");
const forwarder = createForwarder({
  upstream,
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
  onEvent: ignoreEvents,
});
const drop = () => true;
const server = createServer((request, response) => forwarder.forward(request, response, drop));
server.keepAliveTimeout = 60_000;
await listenAndAnnounce(server);
closeOnSignal(() => {
  server.close();
  forwarder.close();
});
