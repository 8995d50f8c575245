// A bare http-proxy reverse proxy recording nothing: the floor cost of the library assopay record uses.
// Usage: node --import tsx bench/systems/bare-proxy.ts --upstream URL [--no-keepalive]
import { Agent, createServer } from "node:http";
import httpProxy from "http-proxy";
import { argument, serve } from "./listen.js";

const upstream = argument("--upstream");
const keepAlive = !process.argv.includes("--no-keepalive");
const agent = new Agent({ keepAlive, maxSockets: 256 });
const proxy = httpProxy.createProxyServer({ target: upstream, agent: keepAlive ? agent : undefined });
proxy.on("error", (_error, _request, response) => {
  if ("writeHead" in response && !response.headersSent) response.writeHead(502);
  response.end();
});
const server = createServer((request, response) => proxy.web(request, response));
await serve(server);
