import { syncBuiltinESMExports } from "node:module";
import { AssopayError } from "../../core/errors.js";
import { interceptFetch } from "./fetch.js";
import { checkHosts } from "./hosts.js";
import { interceptNodeHttp } from "./node-http.js";
import { guardSockets } from "./sockets.js";
import { interceptWorkers } from "./workers.js";

/** Options of {@link installIntercept}. */
export interface InterceptOptions {
  /**
   * The hosts whose requests go to the target instead; every other host is left alone.
   * @example { hosts: ["api.helloasso.com", "api.helloasso-sandbox.com"] }
   */
  hosts: readonly string[];
  /**
   * The running recorder or replay server, a plain `http://` URL (as `assopay record --intercept` prints).
   * @example { target: "http://127.0.0.1:8470" }
   */
  target: string | URL;
}

/**
 * Sends this process's requests for the named hosts (fetch, with its own dispatcher too; `http`,
 * `https`) to a recorder or replay server over plain http, the origin meant in a header; refuses, with
 * an error naming the host, any other socket to them (an undici Pool or Client, `http2.connect`,
 * `tls.connect`, `net.connect`) and any request naming them sent to a proxy (undici's `ProxyAgent`:
 * see `sockets.ts`); does the same in every `worker_threads` Worker (`workers.ts`); other hosts are
 * untouched. This is what
 * `node --import assopay-contract/intercept` does from the environment. Returns the function that undoes it.
 *
 * @example
 * const undo = installIntercept({ hosts: ["api.helloasso.com"], target: "http://127.0.0.1:8470" });
 * await fetch("https://api.helloasso.com/v5/partners/me"); // answered by the recorder
 * undo();
 */
export function installIntercept(options: InterceptOptions): () => void {
  const hosts = checkHosts(options.hosts, "intercept hosts");
  const target = URL.canParse(String(options.target)) ? new URL(String(options.target)) : undefined;
  if (target?.protocol !== "http:" || target.pathname !== "/" || target.search !== "") {
    throw new AssopayError(
      "usage",
      `the intercept target must be a plain http://host:port URL, got "${String(options.target)}"`,
      {
        hint: "use the URL that assopay record|replay --intercept prints",
      },
    );
  }
  const plan = Object.freeze({ hosts, target: target as URL });
  const undo = [interceptFetch, interceptNodeHttp, guardSockets, interceptWorkers].map((step) => step(plan));
  syncBuiltinESMExports();
  return () => {
    // In the reverse order: each step puts back what it found, the step after it having wrapped that.
    for (const step of [...undo].reverse()) step();
    syncBuiltinESMExports();
  };
}
