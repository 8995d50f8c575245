import { inject } from "light-my-request";
import type { RunningSandbox } from "../../../sandbox/index.js";
import { createTransport, type Transport } from "../../../specs/runner/transport.js";

/**
 * verify's exchanges with the sandbox handed to its own request listener, in this process: no socket, no
 * HTTP parser on either side. What the checks see is what a socket gives them (the sandbox never
 * compresses, so there is no coding to undo). Any other origin (a proxy in front of the sandbox, another
 * target) goes on a socket, as do the sandbox's notifications to verify's receiver.
 */
export function inProcessTransport(sandbox: RunningSandbox): Transport {
  const socket = createTransport();
  return {
    async exchange(outgoing) {
      const { method, url, headers, body, signal } = outgoing;
      if (new URL(url).origin !== sandbox.url) return socket.exchange(outgoing);
      const answer = await inject(sandbox.handle, {
        method: method as "GET",
        url,
        headers,
        signal,
        ...(body === undefined ? {} : { payload: body }),
      });
      const answered = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        for (const one of Array.isArray(value) ? value : [value]) answered.append(name, String(one));
      }
      return { status: answer.statusCode, headers: answered, bytes: answer.rawPayload };
    },
    close: () => socket.close(),
  };
}
