// WireMock on the machine's Java: recording through its proxy, or serving stubs from a root dir.
// Usage: node --import tsx bench/systems/wiremock.ts --mode record|playback --root DIR [--upstream URL]
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomPort, serveFromChild } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
const arg = (name: string) => process.argv[process.argv.indexOf(`--${name}`) + 1] ?? "";
const jar = join(
  dirname(require.resolve("wiremock/package.json")),
  "build",
  "wiremock-standalone-3.13.2.jar",
);
const port = randomPort();
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
serveFromChild("wiremock", "java", args, port, /port:\s+\d+|started/i);
