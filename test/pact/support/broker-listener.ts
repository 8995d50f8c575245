import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the official client sent, as received. */
export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface BrokerListener {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export interface ListenerOptions {
  /** Pacts offered to a provider asking for the pacts to verify. */
  pacts?: readonly Record<string, unknown>[];
  /** Status answering a contract publication (201 by default). */
  publishStatus?: number;
  /** Status answering verification results (201 by default). */
  resultsStatus?: number;
}

const link = (href: string, name: string, title: string) => ({ href, name, title });

/**
 * A loopback listener that records what the official Pact client sends and answers it as a broker's
 * HAL API would, just enough for it to go on: the index, contract publication, the pacts for
 * verification, a pact, and verification results. It stores nothing and is no broker.
 */
export async function brokerListener(options: ListenerOptions = {}): Promise<BrokerListener> {
  const requests: Recorded[] = [];
  const pacts = options.pacts ?? [];
  const answer = (req: IncomingMessage, res: ServerResponse, body: string, base: string) => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/hal+json" });
      res.end(JSON.stringify(value));
    };
    const path = req.url ?? "/";
    if (req.method === "GET" && path === "/") {
      return json(200, {
        _links: {
          "pb:publish-contracts": link(`${base}/contracts/publish`, "publish", "Publish contracts"),
          "pb:provider-pacts-for-verification": {
            ...link(`${base}/pacts/provider/{provider}/for-verification`, "verify", "Pacts for verification"),
            templated: true,
          },
        },
      });
    }
    if (req.method === "POST" && path === "/contracts/publish") {
      if ((options.publishStatus ?? 201) >= 400)
        return json(options.publishStatus ?? 400, { errors: { contracts: ["refused"] } });
      const sent = JSON.parse(body) as { pacticipantName: string; pacticipantVersionNumber: string };
      const version = `${base}/pacticipants/${sent.pacticipantName}/versions/${sent.pacticipantVersionNumber}`;
      return json(200, {
        logs: [
          { level: "info", message: `Recorded ${sent.pacticipantName} ${sent.pacticipantVersionNumber}` },
        ],
        _embedded: {
          pacticipant: { name: sent.pacticipantName, _links: { self: { href: `${base}/pacticipants/x` } } },
          version: { number: sent.pacticipantVersionNumber, _links: { self: link(version, "v", "Version") } },
        },
        _links: {
          "pb:pacticipant": link(`${base}/pacticipants/x`, sent.pacticipantName, "Pacticipant"),
          "pb:pacticipant-version": link(version, sent.pacticipantVersionNumber, "Pacticipant version"),
          "pb:pacticipant-version-tags": [],
          "pb:contracts": [link(`${base}/pacts/0`, "Pact", "Pact")],
        },
      });
    }
    const forVerification = /^\/pacts\/provider\/[^/]+\/for-verification$/.test(path);
    if (req.method === "GET" && forVerification) {
      return json(200, { _links: { self: { href: `${base}${path}` } } });
    }
    if (req.method === "POST" && forVerification) {
      return json(200, {
        _embedded: {
          pacts: pacts.map((_, i) => ({
            shortDescription: `pact ${i}`,
            verificationProperties: { pending: false, notices: [] },
            _links: { self: link(`${base}/pacts/${i}`, `pact ${i}`, "Pact") },
          })),
        },
        _links: { self: { href: `${base}${path}` } },
      });
    }
    const pact = /^\/pacts\/(\d+)$/.exec(path);
    const served = pact ? pacts[Number(pact[1])] : undefined;
    if (req.method === "GET" && served) {
      return json(200, {
        ...served,
        _links: {
          "pb:publish-verification-results": link(
            `${base}${path}/verification-results`,
            "results",
            "Publish",
          ),
          "pb:provider": link(`${base}/pacticipants/provider`, "provider", "Provider"),
        },
      });
    }
    if (req.method === "GET" && path === "/pacticipants/provider") {
      const branchVersion = `${base}/pacticipants/provider/branches/{branch}/versions/{version}`;
      return json(200, {
        _links: {
          "pb:branch-version": {
            ...link(branchVersion, "branch version", "Branch version"),
            templated: true,
          },
        },
      });
    }
    if (req.method === "PUT" && /^\/pacticipants\/provider\/branches\/[^/]+\/versions\/[^/]+$/.test(path)) {
      return json(200, { _links: { self: { href: `${base}${path}` } } });
    }
    if (req.method === "POST" && /^\/pacts\/\d+\/verification-results$/.test(path)) {
      const status = options.resultsStatus ?? 201;
      return json(
        status,
        status < 400 ? { _links: { self: { href: `${base}${path}/1` } } } : { error: "refused" },
      );
    }
    return json(404, { error: `no ${req.method} ${path} here` });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      answer(req, res, body, `http://${req.headers.host}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
