// Prism's mock server on a one-route OpenAPI document whose example is the bench body.
// Usage: node --import tsx bench/systems/prism.ts --spec FILE
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { randomPort, serveFromChild } from "./listen.js";

const require = createRequire(new URL("../package.json", import.meta.url));
const spec = process.argv[process.argv.indexOf("--spec") + 1] ?? "";
const bin = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
const port = randomPort();
const args = [bin, "mock", spec, "--port", String(port), "--host", "127.0.0.1", "--errors", "false"];
serveFromChild("prism", process.execPath, args, port, /Prism is listening/);
