import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface FormsListingProxy {
  url: string;
  /** How many times the forms listing was asked for. */
  asked: number;
  close(): Promise<void>;
}

/**
 * Stands in front of a provider that cannot list forms and answers `GET /v5/organizations/{slug}/forms`
 * itself with the forms given (one page, then an empty one); everything else goes upstream unchanged.
 * For testing verify's discovery before the sandbox serves that route.
 */
export async function startFormsListingProxy(
  upstream: string,
  forms: readonly { formType: string; formSlug: string }[],
): Promise<FormsListingProxy> {
  const state = { asked: 0 };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", upstream);
    const listing = /^\/v5\/organizations\/([^/]+)\/forms$/.exec(url.pathname);
    if (req.method === "GET" && listing) {
      state.asked++;
      const last = url.searchParams.has("continuationToken");
      const organizationSlug = decodeURIComponent(listing[1] ?? "");
      // A valid page of the forms listing (it is crawled and judged like any listing), with real counts.
      const body = {
        data: last ? [] : forms.map((f) => ({ ...f, organizationSlug, title: f.formSlug, state: "Public" })),
        pagination: {
          pageSize: 20,
          totalCount: forms.length,
          pageIndex: last ? 2 : 1,
          totalPages: 1,
          continuationToken: "next",
        },
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "content-length") headers.set(name, value);
    }
    const answer = await fetch(url, {
      method: req.method ?? "GET",
      headers,
      redirect: "manual",
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding")
        out[name] = value;
    });
    res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get asked() {
      return state.asked;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
