// mockttp passing every request through to the upstream, with a hook that captures the response body
// (what a recorder built on it would need).
// Usage: node --import tsx bench/systems/mockttp.ts --upstream URL
import { createRequire } from "node:module";
import { argument, closeOnSignal } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
const upstream = argument("--upstream");
// biome-ignore lint/suspicious/noExplicitAny: loaded from bench/node_modules at run time
const mockttp = require("mockttp") as any;
const server = mockttp.getLocal();
await server.start();
let captured = 0;
await server.forAnyRequest().thenForwardTo(upstream, {
  beforeResponse: async (response: { body: { getText(): Promise<string | undefined> } }) => {
    captured += (await response.body.getText())?.length ?? 0;
    return {};
  },
});
process.stdout.write(`READY ${server.url.replace("localhost", "127.0.0.1")}\n`);
closeOnSignal(() => {
  process.stderr.write(`mockttp captured ${captured} bytes\n`);
  return server.stop();
});
