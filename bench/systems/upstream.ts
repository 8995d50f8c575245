// The upstream (and the plain node:http ceiling): answers every GET with the same JSON body.
// Usage: node --import tsx bench/systems/upstream.ts [--size BYTES]
import { createServer } from "node:http";
import { jsonBody } from "./body.js";
import { closeOnSignal, listenAndAnnounce } from "./listen.js";

const sizeFlag = process.argv.indexOf("--size");
const size = sizeFlag > 0 ? Number(process.argv[sizeFlag + 1]) : 2048;
const body = jsonBody(size);
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": body.length,
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
await listenAndAnnounce(server);
closeOnSignal(() => server.close());
