// The upstream (and the plain node:http ceiling): answers every GET with the same JSON body.
// Usage: node --import tsx bench/systems/upstream.ts [--size BYTES]
import { createServer } from "node:http";
import { jsonBody } from "./body.js";
import { argument, serve } from "./listen.js";

const body = jsonBody(Number(argument("--size") ?? 2048));
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
await serve(server);
