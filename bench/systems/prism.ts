// Prism's mock server on a one-route OpenAPI document whose example is the bench body.
// Usage: node --import tsx bench/systems/prism.ts --spec FILE
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { closeOnSignal } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
const spec = process.argv[process.argv.indexOf("--spec") + 1] ?? "";
const bin = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
const port = 20_000 + Math.floor(Math.random() * 20_000);
const prism = spawn(
  process.execPath,
  [bin, "mock", spec, "--port", String(port), "--host", "127.0.0.1", "--errors", "false"],
  {
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let output = "";
let ready = false;
const onData = (chunk: Buffer) => {
  output += chunk.toString();
  if (!ready && /Prism is listening/.test(output)) {
    ready = true;
    process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  }
};
prism.stdout.on("data", onData);
prism.stderr.on("data", onData);
prism.once("exit", (code) => {
  process.stderr.write(`prism exited ${code}\n${output.slice(-1000)}`);
  process.exit(1);
});
closeOnSignal(() => prism.kill("SIGTERM"));
