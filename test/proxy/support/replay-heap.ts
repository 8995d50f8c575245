// Starts a replay server on the cassette named in argv and prints, as one JSON line, the heap in use
// (bytes) as the server left it and once the garbage is collected: what a replay process carries while it
// serves, and what it keeps. Run in a process of its own.
import { collectGarbage } from "../../../core/collect.js";
import { startReplay } from "../../../proxy/replay/server.js";

const replay = await startReplay({ cassettes: process.argv[2] ?? "", port: 0, onEvent: () => undefined });
const left = process.memoryUsage().heapUsed;
await new Promise((resolve) => setImmediate(resolve));
collectGarbage();
const kept = process.memoryUsage().heapUsed;
process.stdout.write(`${JSON.stringify({ left, kept, interactions: replay.interactions })}\n`);
await replay.close();
