import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { eras, generatePacts, pactFileName, stalePacts } from "../../contracts/pact/generate.js";
import { contractsDir } from "../../core/paths.js";
import { referenceExample } from "../support/reference.js";

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

  it("descriptions are unique across every file, so the folder publishes as one consumer version", () => {
    const all = eras(contract).flatMap((asOf) =>
      readPact(pactFileName(asOf)).interactions.map((i) => i.description),
    );
    expect(new Set(all).size).toBe(all.length);
    const shared = all.map((d) => d.replace(/ \(as of [\d-]+\)$/, ""));
    expect(new Set(shared).size).toBeLessThan(all.length);
  });

  it("every listing is walked with its own token per step: page 1 gives A, A gives B, B asks the empty page", () => {
    for (const asOf of eras(contract)) {
      const pact = readPact(pactFileName(asOf));
      for (const route of contract.routes.listings()) {
        const steps = pact.interactions.filter(
          (i) => i.description.startsWith(`${route.id}: `) && i.response?.status === 200,
        );
        if (steps.length === 0) continue;
        const token = (i: Interaction | undefined) =>
          (i?.response?.body?.content.pagination as { continuationToken?: string } | undefined)
            ?.continuationToken;
        const asked = (i: Interaction | undefined) => i?.request?.query?.continuationToken?.[0];
        const first = steps.find((i) => i.request?.query === undefined);
        const next = steps.find((i) => i.description.includes("next page"));
        const last = steps.find((i) => i.description.includes("the end is an empty result array"));
        expect(first?.request?.query, `${asOf} ${route.id}`).toBeUndefined();
        if (!route.countDeprecation) {
          // A short listing is one page without a token (seed rule 7): the walk ends there.
          expect(token(first), `${asOf} ${route.id}`).toBeUndefined();
          expect(next ?? last).toBeUndefined();
          continue;
        }
        expect(asked(next)).toBe(token(first));
        expect(asked(last)).toBe(token(next));
        expect(token(first)).not.toBe(token(next));
        expect(Object.values(last?.response?.body?.content ?? {}).find(Array.isArray)).toEqual([]);
      }
    }
  });

  it("fields the provider's document types as enums carry one of its values, not a placeholder", () => {
    const enums = (
      referenceExample("openapi-components.json") as { schemas: Record<string, { enum?: string[] }> }
    ).schemas;
    const pact = readPact(pactFileName("2025-06-30" as never));
    const entry = pact.interactions.find((i) => i.description.startsWith("v5.form-orders: first page, no"))
      ?.response?.body?.content.data as { items: { state: string; type: string }[] }[];
    const payment = pact.interactions.find((i) =>
      i.description.startsWith("v5.form-payments: first page, no"),
    )?.response?.body?.content.data as { state: string }[];
    expect(enums.ItemState?.enum).toContain(entry[0]?.items[0]?.state);
    expect(enums.TierType?.enum).toContain(entry[0]?.items[0]?.type);
    expect(enums.PaymentState?.enum).toContain(payment[0]?.state);
  });

  it("every interaction starts with the service date of its era", () => {
    for (const asOf of eras(contract)) {
      for (const i of readPact(pactFileName(asOf)).interactions)
        expect(i.providerStates[0]).toEqual({ name: "the service date", params: { day: asOf } });
    }
  });

  it("generation is deterministic", () => {
    expect(generatePacts(contract)).toEqual(generatePacts(loadContract()));
  });
});
