import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { eras, generatePacts, pactFileName, stalePacts } from "../../contracts/pact/generate.js";
import { contractsDir } from "../../core/paths.js";

const contract = loadContract();
const pactsDir = join(contractsDir(), "pacts");

interface Interaction {
  type: string;
  description: string;
  providerStates: { name: string; params?: Record<string, unknown> }[];
  request?: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    generators?: { query?: object; header?: object };
  };
  response?: { status: number; body?: { content: Record<string, unknown> } };
  contents?: { content: { eventType: string } };
  metadata?: Record<string, string>;
}

const readPact = (name: string) =>
  JSON.parse(readFileSync(join(pactsDir, name), "utf8")) as {
    interactions: Interaction[];
    metadata: { pactSpecification: { version: string } };
  };

describe("the committed pact files", () => {
  it("are exactly what the contract generates now (run 'npm run contracts' when this fails)", () => {
    expect(stalePacts(contract, pactsDir)).toEqual([]);
  });

  it.each(eras(contract))(
    "as of %s: parse as Pact V4, cover every route and every notification type",
    (asOf) => {
      const pact = readPact(pactFileName(asOf));
      expect(pact.metadata.pactSpecification.version).toBe("4.0");
      const http = pact.interactions.filter((i) => i.type === "Synchronous/HTTP");
      const covered = new Set(
        http.map((i) => contract.routes.match(i.request?.method ?? "", i.request?.path ?? "")?.route.id),
      );
      expect([...covered].sort()).toEqual(contract.routes.all.map((r) => r.id).sort());
      const messages = pact.interactions.filter((i) => i.type === "Asynchronous/Messages");
      expect(messages.map((m) => m.contents?.content.eventType).sort()).toEqual(
        contract.notificationTypes.map((t) => t.eventType).sort(),
      );
      for (const message of messages) expect(message.metadata?.["x-ha-signature"]).toMatch(/^[0-9a-f]{64}$/);
      for (const interaction of pact.interactions)
        expect(
          interaction.providerStates.every((s) => contract.providerStates.some((p) => p.name === s.name)),
        ).toBe(true);
    },
  );
});

describe("what the pacts say", () => {
  const byDescription = (asOf: string) => {
    const pact = readPact(pactFileName(asOf as never));
    return (text: string) => pact.interactions.filter((i) => i.description.startsWith(text));
  };

  it("the pagination sequence: no token first, the echoed token next, an empty array at the end", () => {
    const find = byDescription("2025-06-30");
    const [first] = find("v5.form-items: first page, no continuation token");
    expect(first?.request?.query?.continuationToken).toBeUndefined();
    const [next] = find("v5.form-items: next page");
    expect(next?.request?.generators?.query).toEqual({
      continuationToken: {
        type: "ProviderState", // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact expressions use ${…} literally
        expression: "${secondPageToken}",
        dataType: "STRING",
      },
    });
    const [last] = find("v5.form-items: the end is an empty result array");
    expect(last?.response?.body?.content.data).toEqual([]);
  });

  it("withCount absent and true, with the counts of each era", () => {
    const counts = (asOf: string, description: string) =>
      (byDescription(asOf)(description)[0]?.response?.body?.content.pagination as Record<string, unknown>) ??
      {};
    expect(counts("2024-12-15", "v5.org-orders: first page, no continuation").totalCount).toBe(45);
    expect(byDescription("2024-12-15")("v5.org-orders: first page with withCount=true")).toEqual([]);
    expect(counts("2025-03-15", "v5.org-orders: first page, no continuation").totalCount).toBe(-1);
    expect(counts("2025-03-15", "v5.org-orders: first page with withCount=true").totalCount).toBe(45);
    expect(counts("2025-05-05", "v5.org-orders: first page with withCount=true")).not.toHaveProperty(
      "totalCount",
    );
  });

  it("v3 answers before its switch-off and not after; the file needs the right", () => {
    expect(byDescription("2025-06-01")("v3.org-items: first page")[0]?.response?.status).toBe(200);
    expect(byDescription("2025-06-30")("v3.org-items: switched off")[0]?.response?.status).toBe(404);
    const file = byDescription("2025-06-30")("attached file");
    const role = (i: Interaction) =>
      (i.providerStates.find((s) => s.name === "an access token")?.params?.role as string) ?? "none";
    expect(file.map((i) => [role(i), i.response?.status])).toEqual([
      ["admin", 200],
      ["reader", 403],
      ["none", 401],
    ]);
    for (const i of file.filter((f) => role(f) !== "none")) {
      expect(i.request?.generators?.header).toEqual({
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact expressions use ${…} literally
        Authorization: { type: "ProviderState", expression: "Bearer ${accessToken}", dataType: "STRING" },
      });
    }
  });

  it("generation is deterministic", () => {
    expect(generatePacts(contract)).toEqual(generatePacts(loadContract()));
  });
});
