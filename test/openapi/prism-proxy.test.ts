import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { serializeOpenApi } from "../../contracts/openapi/serialize.js";
import { contract, day, type Harness, harness } from "../sandbox/helpers.js";
import { crawlCatalogue, type Exchange } from "./crawl.js";
import { type RunningPrism, startPrism } from "./prism.js";

// Prism 5.14.2 as a validation proxy in front of the sandbox: every response of a crawl of the whole
// catalogue must match the exported document. Two dates: v3 served with real counts, and v3 off with the
// counts gone.
const BEFORE = day("2025-01-15");
const AFTER = day("2026-01-01");

function report(exchanges: readonly Exchange[]): string {
  return exchanges
    .filter((e) => e.violations !== undefined || e.status >= 500 || e.status === 422)
    .map((e) => `${e.request} → ${e.status} ${e.violations ?? e.body.slice(0, 300)}`)
    .join("\n");
}

describe("Prism as a validation proxy over the sandbox", () => {
  let h: Harness;
  let prism: RunningPrism;
  let specFile: string;

  beforeAll(async () => {
    h = await harness({ at: BEFORE });
    specFile = join(mkdtempSync(join(tmpdir(), "assopay-openapi-")), "openapi.yaml");
    writeFileSync(specFile, serializeOpenApi(exportOpenApi(contract(), { at: BEFORE }), "yaml"));
    prism = await startPrism(["proxy", specFile, h.url, "--errors"]);
  });

  afterAll(async () => {
    await prism?.close();
    await h?.close();
  });

  for (const date of [BEFORE, AFTER]) {
    it(`reports no violation on a crawl of every route at ${date}`, async () => {
      await h.clock({ day: date });
      h.forgetTokens();
      const routes = contract().routes.all;
      const exchanges = await crawlCatalogue(h, prism.url, routes);
      expect(report(exchanges)).toBe("");
      // The crawl reached every route, and each answered its documented success somewhere.
      for (const route of routes) {
        const statuses = exchanges.filter((e) => e.route === route.id).map((e) => e.status);
        const served = contract().timeline.datedRulesAt(route, date).served;
        expect(statuses, route.id).toContain(served ? route.response.status : 404);
      }
    });
  }

  it("flags a response that breaks the document", async () => {
    // A proxy over a document whose partner schema demands a field the sandbox never sends.
    const document = exportOpenApi(contract(), { at: BEFORE }) as unknown as {
      components: { schemas: Record<string, { required?: string[] }> };
    };
    document.components.schemas.partner = {
      ...document.components.schemas.partner,
      required: [...(document.components.schemas.partner?.required ?? []), "neverSent"],
    };
    const broken = join(mkdtempSync(join(tmpdir(), "assopay-openapi-")), "broken.yaml");
    writeFileSync(broken, serializeOpenApi(document, "yaml"));
    const strict = await startPrism(["proxy", broken, h.url, "--errors"]);
    try {
      const route = contract().routes.byId("v5.partner-info");
      const exchanges = await crawlCatalogue(h, strict.url, [route]);
      expect(report(exchanges)).toContain("neverSent");
    } finally {
      await strict.close();
    }
  });
});
