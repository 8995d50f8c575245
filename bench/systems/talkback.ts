// talkback, recording (every request is new) or playing back its tapes.
// Usage: node --import tsx bench/systems/talkback.ts --mode record|playback --upstream URL --tapes DIR
import { createRequire } from "node:module";
import { argument, closeOnSignal, randomPort } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: talkback ships no types for its CommonJS entry
const talkback = require("talkback") as any;
const mode =
  argument("--mode") === "record" ? talkback.Options.RecordMode.NEW : talkback.Options.RecordMode.DISABLED;
const port = randomPort();
const server = talkback({
  host: argument("--upstream"),
  port,
  path: argument("--tapes"),
  record: mode,
  // Match on method, URL and body only, as the other replayers do: the load generator's headers differ
  // from the recording client's.
  allowHeaders: [],
  silent: true,
  summary: false,
  fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
});
await server.start();
process.stdout.write(`READY http://127.0.0.1:${port}\n`);
closeOnSignal(() => server.close());
