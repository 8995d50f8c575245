// WireMock on the machine's Java: recording through its proxy, or serving stubs from a root dir.
// Usage: node --import tsx bench/systems/wiremock.ts --mode record|playback --root DIR [--upstream URL]
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { closeOnSignal } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1] ?? "";
const jar = join(
  dirname(require.resolve("wiremock/package.json")),
  "build",
  "wiremock-standalone-3.13.2.jar",
);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const args = [
  "-jar",
  jar,
  "--port",
  String(port),
  "--bind-address",
  "127.0.0.1",
  "--root-dir",
  arg("root"),
  "--disable-banner",
];
if (arg("mode") === "record") args.push("--proxy-all", arg("upstream"), "--record-mappings");
const java = spawn("java", args, { stdio: ["ignore", "pipe", "pipe"] });
let output = "";
const onData = (chunk: Buffer) => {
  output += chunk.toString();
  if (/port:\s+\d+|started/i.test(output)) {
    java.stdout.off("data", onData);
    java.stdout.resume();
    process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  }
};
java.stdout.on("data", onData);
java.stderr.on("data", (chunk: Buffer) => {
  output += chunk.toString();
});
java.once("exit", (code) => {
  process.stderr.write(`wiremock exited ${code}\n${output.slice(-1000)}`);
  process.exit(1);
});
closeOnSignal(() => java.kill("SIGTERM"));
