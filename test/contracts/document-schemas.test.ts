import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentJudge } from "../../contracts/document-schemas.js";
import { loadContract, type Route } from "../../contracts/index.js";
import { contractsDir } from "../../core/paths.js";
import { day, type Harness, harness } from "../sandbox/helpers.js";

function publishedDocument(): unknown {
  return JSON.parse(readFileSync(join(contractsDir(), "reference", "openapi-v5.json"), "utf8"));
}

interface Divergence {
  entrySchema: string;
  pointer: string;
}
const divergences = (
  parse(readFileSync(join(contractsDir(), "divergences.yaml"), "utf8")) as { divergences: Divergence[] }
).divergences;

/** The errors a route's answer may have against the document: only the listed divergences. */
function tolerated(route: Route, instancePath: string): boolean {
  return divergences.some(
    (d) => d.entrySchema === route.pagination?.entrySchema && new RegExp(d.pointer).test(instancePath),
  );
}

describe("every catalogued route's sandbox answer validates against our schema and the document's", () => {
  const contract = loadContract();
  const documentContract = loadContract({ shapes: "document" });
  const judge = documentJudge(publishedDocument(), "/v5");
  let h: Harness;
  let hd: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 12 });
    hd = await harness({ at: day("2025-07-01"), entries: 12, shapes: "document" });
  });
  afterAll(async () => {
    await h.close();
    await hd.close();
  });

  /** Calls a route with real ids from provider states; the answer's status and body. */
  async function answer(on: Harness, route: Route): Promise<{ status: number; body: unknown }> {
    const { organizationSlug, formType, formSlug } = on.sandbox.credentials;
    const paid = await on.state("an order is paid");
    const intent = await on.state("a checkout intent");
    const params: Record<string, string> = {
      organizationSlug,
      formType,
      formSlug,
      orderId: String(paid.orderId),
      itemId: String(paid.itemId),
      paymentId: String(paid.paymentId),
      checkoutIntentId: String(intent.checkoutIntentId),
    };
    const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => params[name] ?? name);
    const bodies: Record<string, unknown> = {
      "v5.notification-url": { url: "https://example.org/hook" },
      "v5.notification-url-org": { url: "https://example.org/hook" },
      "v5.checkout-create": {
        totalAmount: 1000,
        initialAmount: 1000,
        itemName: "x",
        backUrl: "https://example.org/b",
        errorUrl: "https://example.org/e",
        returnUrl: "https://example.org/r",
        containsDonation: false,
      },
    };
    const response =
      route.method === "GET" ? await on.get(path) : await on.send(route.method, path, bodies[route.id] ?? "");
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
  }

  const jsonRoutes = () =>
    contract.routes.all.filter((r) => r.version === "v5" && r.response.contentType === "application/json");

  it("seed shapes: ours accept every answer; the document's, all but the listed divergences", async () => {
    const judged: string[] = [];
    for (const route of jsonRoutes()) {
      const { status, body } = await answer(h, route);
      expect(status, route.id).toBe(route.response.status);
      if (route.pagination)
        expect(contract.schemas.validatePage(route, body, "not-applicable"), route.id).toEqual([]);
      else if (route.response.schema)
        expect(contract.schemas.validate(route.response.schema, body), route.id).toEqual([]);
      const verdict = judge(route, body);
      if (verdict.kind !== "judged") continue;
      judged.push(route.id);
      const left = verdict.errors.filter((e) => !tolerated(route, e.instancePath));
      expect(
        left.map((e) => `${e.instancePath} ${e.message}`),
        route.id,
      ).toEqual([]);
    }
    expect(judged).toEqual(
      expect.arrayContaining(["v5.form-items", "v5.payment", "v5.item", "v5.organization"]),
    );
  });

  it("document shapes: the document's schema accepts every answer with no divergence at all", async () => {
    for (const route of jsonRoutes()) {
      const { body } = await answer(hd, route);
      if (route.pagination)
        expect(documentContract.schemas.validatePage(route, body, "not-applicable"), route.id).toEqual([]);
      const verdict = judge(route, body);
      if (verdict.kind === "judged") expect(verdict.errors, route.id).toEqual([]);
    }
  });

  it("flags an answer that breaks the document's schema outside the listed divergences", async () => {
    const route = contract.routes.byId("v5.payment");
    const { body } = await answer(h, route);
    const verdict = judge(route, { ...(body as object), amount: "12.00", refundOperations: {} });
    expect(verdict.kind).toBe("judged");
    if (verdict.kind === "judged")
      expect(verdict.errors.map((e) => e.instancePath)).toEqual(
        expect.arrayContaining(["/amount", "/refundOperations"]),
      );
    const items = contract.routes.byId("v5.form-items");
    const page = (await answer(h, items)).body as { data: Record<string, unknown>[] };
    const broken = { ...page, data: [{ ...page.data[0], id: "not an id" }] };
    const errors = judge(items, broken);
    if (errors.kind !== "judged") throw new Error("the items listing is judged");
    expect(
      errors.errors.filter((e) => !tolerated(items, e.instancePath)).map((e) => e.instancePath),
    ).toContain("/data/0/id");
  });
});
