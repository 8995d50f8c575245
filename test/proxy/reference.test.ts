import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectedCounts, loadContract, queryBoolean } from "../../contracts/index.js";
import { packageRoot } from "../../core/paths.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { bodyBytes } from "../../proxy/cassette/body.js";
import type { Cassette, Interaction } from "../../proxy/cassette/format.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { startReplay } from "../../proxy/replay/server.js";
import { send } from "./support/http.js";
import { REFERENCE_AT, REFERENCE_CASSETTES } from "./support/record-reference.js";
import { sign } from "./support/upstream.js";

const contract = loadContract();
const file = (name: string) => join(packageRoot(), "recordings", name);

function json(body: Interaction["response"]["body"]): unknown {
  return JSON.parse(bodyBytes(body).toString("utf8"));
}

function searchParams(query: Interaction["request"]["query"]): URLSearchParams {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([name, v]);
  }
  return new URLSearchParams(pairs);
}

/** Schema findings for one recorded response, judged by its route at the recording date. */
function findings(interaction: Interaction): unknown[] {
  const { request, response } = interaction;
  const match = contract.routes.match(request.method, request.path);
  if (!match || response.status !== match.route.response.status) return [];
  const { route } = match;
  if (route.pagination) {
    const params = searchParams(request.query);
    const counts = expectedCounts(
      contract.timeline.datedRulesAt(route, REFERENCE_AT),
      queryBoolean(params, "withCount") ?? undefined,
    );
    return contract.schemas.validatePage(route, json(response.body), counts);
  }
  return route.response.schema ? contract.schemas.validate(route.response.schema, json(response.body)) : [];
}

async function replayAll(cassette: Cassette): Promise<void> {
  // Byte for byte: the recorded origins are kept (rewriting them is tested in replay-origins.test.ts).
  const replay = await startReplay({ cassettes: cassette.file, keepOrigins: true });
  try {
    for (const interaction of cassette.interactions.filter((i) => !i.notification)) {
      const { request, response } = interaction;
      const query = searchParams(request.query);
      const target = `${replay.url}${request.path}${query.size > 0 ? `?${query}` : ""}`;
      const { "accept-encoding": _encoding, ...headers } = request.headers as Record<string, string>;
      const reply = await send(target, { method: request.method, headers, body: bodyBytes(request.body) });
      expect(reply.status, `${cassette.file}:${interaction.source.line}`).toBe(response.status);
      expect(reply.body.equals(bodyBytes(response.body)), `${cassette.file}:${interaction.source.line}`).toBe(
        true,
      );
    }
  } finally {
    await replay.close();
  }
}

describe("the reference cassettes in recordings/", () => {
  it.each(Object.values(REFERENCE_CASSETTES))(
    "%s loads cleanly, satisfies the schemas and replays",
    async (name) => {
      const cassette = await loadCassette(file(name));
      expect(cassette.warnings).toEqual([]);
      expect(cassette.interactions.length).toBeGreaterThan(0);
      for (const interaction of cassette.interactions) {
        expect(findings(interaction), `${name}:${interaction.source.line}`).toEqual([]);
      }
      await replayAll(cassette);
    },
  );

  it("pagination-crawl is a full crawl: pages until the empty one, each token echoed", async () => {
    const cassette = await loadCassette(file(REFERENCE_CASSETTES.crawl));
    const pages = cassette.interactions.filter((i) => i.request.path.endsWith("/items"));
    const bodies = pages.map(
      (p) => json(p.response.body) as { data: unknown[]; pagination: { continuationToken: string } },
    );
    expect(bodies.at(-1)?.data).toEqual([]);
    expect(bodies.slice(0, -1).every((b) => b.data.length > 0)).toBe(true);
    pages.slice(1).forEach((page, i) => {
      expect(page.request.query?.continuationToken).toBe(bodies[i]?.pagination.continuationToken);
    });
  });

  it("order-attached-file holds the attached file as base64, byte for byte a PDF", async () => {
    const cassette = await loadCassette(file(REFERENCE_CASSETTES.attachedFile));
    const download = cassette.interactions.find((i) => /\/files\//.test(i.request.path));
    expect(download?.response.body).toHaveProperty("base64");
    expect(bodyBytes(download?.response.body).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("notification holds verified notifications, re-signed with the key's placeholder, valid against the schema", async () => {
    const cassette = await loadCassette(file(REFERENCE_CASSETTES.notification));
    const partner = cassette.interactions.find((i) => i.request.path === "/v5/partners/me");
    const key =
      (json(partner?.response.body) as { urlNotificationList: { signatureKey: string }[] })
        .urlNotificationList[0]?.signatureKey ?? "";
    expect(key).toMatch(/^<secret:[0-9a-f]{16}>$/);
    const notifications = cassette.interactions.filter((i) => i.notification);
    expect(notifications.map((n) => (json(n.request.body) as { eventType: string }).eventType)).toEqual([
      "Payment",
      "Order",
    ]);
    for (const n of notifications) {
      expect(n.notification?.signature.verified).toBe(true);
      expect(n.request.headers["x-ha-signature"]).toBe(sign(key, bodyBytes(n.request.body).toString("utf8")));
      expect(contract.schemas.validate("notification", json(n.request.body))).toEqual([]);
    }
    expect(placeholderFor("not the key")).not.toBe(key);
  });

  it("replays the crawl as the service answers after the count removal", async () => {
    const cassette = await loadCassette(file(REFERENCE_CASSETTES.crawl));
    const first = cassette.interactions.find((i) => i.request.path.endsWith("/items"));
    const replay = await startReplay({ cassettes: cassette.file, at: "2025-06-15", contract });
    try {
      const reply = await send(`${replay.url}${first?.request.path}?pageSize=20`);
      const recorded = json(first?.response.body) as { pagination: Record<string, unknown> };
      expect(recorded.pagination).toMatchObject({ totalCount: -1, totalPages: -1 });
      expect(reply.json<{ pagination: Record<string, unknown> }>().pagination).not.toHaveProperty(
        "totalCount",
      );
    } finally {
      await replay.close();
    }
  });
});
