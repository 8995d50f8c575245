import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { serializeOpenApi } from "../../contracts/openapi/serialize.js";
import type { Route } from "../../contracts/types.js";
import type { SandboxCredentials } from "../../sandbox/index.js";
import { contract, day } from "../sandbox/helpers.js";
import { requestBody } from "./crawl.js";
import { type RunningPrism, startPrism } from "./prism.js";

// Prism 5.14.2 mocks the exported document: each catalogued route answers an example that the contract's
// own schemas accept, and Prism enforces the document's security and request bodies.
const CREDENTIALS: SandboxCredentials = {
  admin: { clientId: "mock-admin", clientSecret: "mock-secret" },
  reader: { clientId: "mock-reader", clientSecret: "mock-secret" },
  organizationSlug: "mock-org",
  formType: "Event",
  formSlug: "mock-form",
};

function mockPath(route: Route): string {
  return route.pathParams.reduce((path, name) => path.replace(`{${name}}`, `mock-${name}`), route.path);
}

async function call(prism: RunningPrism, route: Route, token: string | undefined): Promise<Response> {
  const { headers, body } = requestBody(CREDENTIALS, route);
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(`${prism.url}${mockPath(route)}`, { method: route.method, headers, body });
}

describe("Prism mock of the exported document", () => {
  let prism: RunningPrism;

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), "assopay-openapi-")), "openapi.json");
    writeFileSync(file, serializeOpenApi(exportOpenApi(contract(), { at: day("2025-01-15") }), "json"));
    prism = await startPrism(["mock", file, "--dynamic", "--seed", "7"]);
  });

  afterAll(async () => {
    await prism?.close();
  });

  it("serves, for every route, an example of its success response that the contract accepts", async () => {
    const failures: string[] = [];
    for (const route of contract().routes.all) {
      const response = await call(prism, route, "mock-token");
      const text = await response.text();
      if (response.status !== route.response.status) {
        failures.push(`${route.id}: status ${response.status} ${text.slice(0, 200)}`);
        continue;
      }
      expect(response.headers.get("content-type"), route.id).toContain(route.response.contentType);
      if (route.response.contentType !== "application/json") continue;
      // A route whose success has no body in the document (cancel, the DELETEs) has nothing to validate.
      if (!route.pagination && route.response.schema === undefined) continue;
      const value = JSON.parse(text) as unknown;
      const diagnostics = route.pagination
        ? contract().schemas.validatePage(route, value, "not-applicable")
        : contract().schemas.validate(route.response.schema ?? "", value);
      for (const d of diagnostics) failures.push(`${route.id}: ${d.path} ${d.message}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers 401 on a protected route called without a token, as the document says", async () => {
    const protectedRoutes = contract().routes.all.filter((r) => r.auth !== "none");
    expect(protectedRoutes.length).toBeGreaterThan(0);
    for (const route of protectedRoutes) {
      const response = await call(prism, route, undefined);
      expect(response.status, route.id).toBe(401);
    }
  });
});
