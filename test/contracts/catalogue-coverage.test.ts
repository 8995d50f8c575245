import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coverageProblems, documentOperations } from "../../contracts/document-coverage.js";
import { loadContract } from "../../contracts/index.js";
import { contractsDir } from "../../core/paths.js";

/** The provider's document, vendored in contracts/reference/. */
function publishedDocument(): unknown {
  return JSON.parse(readFileSync(join(contractsDir(), "reference", "openapi-v5.json"), "utf8"));
}

describe("every operation of the published document is catalogued or left out with a reason", () => {
  const contract = loadContract();
  const { leftOut } = contract;
  const operations = documentOperations(publishedDocument(), "/v5");

  it("finds no operation in neither list, and no stale or unexplained omission", () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(coverageProblems(operations, contract.routes.all, leftOut)).toEqual([]);
  });

  it("catalogues at least the operations real clients call", () => {
    const ids = contract.routes.all.map((r) => `${r.method} ${r.path}`);
    for (const wanted of [
      "GET /v5/payments/{paymentId}",
      "GET /v5/items/{itemId}",
      "GET /v5/organizations/{organizationSlug}",
      "GET /v5/organizations/{organizationSlug}/forms",
      "GET /v5/organizations/{organizationSlug}/formTypes",
      "GET /v5/users/me/organizations",
      "GET /v5/partners/me/organizations",
      "POST /v5/payments/{paymentId}/refund",
      "POST /v5/orders/{orderId}/cancel",
      "DELETE /v5/partners/me/api-notifications",
      "DELETE /v5/partners/me/api-notifications/organizations/{organizationSlug}",
    ])
      expect(ids, wanted).toContain(wanted);
  });

  it("flags an operation in neither list, one both catalogued and left out, and a stale omission", () => {
    const withoutPayment = contract.routes.all.filter((r) => r.id !== "v5.payment");
    expect(coverageProblems(operations, withoutPayment, leftOut)).toEqual([
      "GET /v5/payments/{paymentId} is in neither contracts/routes.yaml nor contracts/left-out.yaml",
    ]);
    const doubled = [...leftOut, { method: "GET", path: "/v5/payments/{id}", reason: "x" }];
    expect(coverageProblems(operations, contract.routes.all, doubled)).toEqual([
      "GET /v5/payments/{paymentId} is both catalogued and left out",
    ]);
    const stale = [...leftOut, { method: "GET", path: "/v5/nowhere", reason: "" }];
    expect(coverageProblems(operations, contract.routes.all, stale)).toEqual([
      "GET /v5/nowhere is left out but not in the document",
      "GET /v5/nowhere is left out without a reason",
    ]);
  });
});
