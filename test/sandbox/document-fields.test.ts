import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentJudge } from "../../contracts/document-schemas.js";
import { documentProperties, publishedDocument } from "../support/reference.js";
import { contract, day, type Harness, harness } from "./helpers.js";

/** The fields a document model lists that a body leaves out (a field sent as `null` is present). */
function missingFields(model: string, body: unknown): string[] {
  const present = new Set(Object.keys((body ?? {}) as object));
  return documentProperties(model).filter((field) => !present.has(field));
}

const judge = documentJudge(publishedDocument(), "/v5");

function documentErrors(routeId: string, body: unknown): unknown[] {
  const judged = judge(contract().routes.byId(routeId), body);
  if (judged.kind !== "judged") throw new Error(`${routeId}: the document gives no schema (${judged.kind})`);
  return judged.errors;
}

describe("sandbox: organization and form views carry every field the provider's document gives them", () => {
  let h: Harness;
  const slug = "amis-du-bac-a-sable";
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 8 });
  });
  afterAll(() => h.close());

  it("gives each entry of /v5/users/me/organizations every OrganizationLightModel field, updateDate included", async () => {
    const { status, body } = await h.json<Record<string, unknown>[]>("/v5/users/me/organizations");
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    for (const entry of body) {
      expect(missingFields("OrganizationLightModel", entry)).toEqual([]);
      expect(entry.updateDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{1,7}[+-]\d\d:\d\d$/);
    }
    expect(documentErrors("v5.user-organizations", body)).toEqual([]);
    expect(contract().schemas.validate("organization-list", body)).toEqual([]);
  });

  it("flags an entry without updateDate, and one whose updateDate is not a string", () => {
    const entry = { name: "A", organizationSlug: "a", role: "OrganizationAdmin", updateDate: "x" };
    const { updateDate: _, ...without } = entry;
    expect(missingFields("OrganizationLightModel", without)).toContain("updateDate");
    expect(
      documentErrors("v5.user-organizations", [{ ...entry, updateDate: 20250701 }]).length,
    ).toBeGreaterThan(0);
  });

  it("gives the organization, its forms, its public form and the partner's organizations every field of their models", async () => {
    const { formType, formSlug } = h.sandbox.credentials;
    const cases: [string, string, string, (body: unknown) => unknown[]][] = [
      ["v5.organization", `/v5/organizations/${slug}`, "OrganizationPublicModel", (b) => [b]],
      [
        "v5.organization-forms",
        `/v5/organizations/${slug}/forms`,
        "FormLightModel",
        (b) => (b as { data: unknown[] }).data,
      ],
      [
        "v5.public-form",
        `/v5/organizations/${slug}/forms/${formType}/${formSlug}/public`,
        "FormPublicModel",
        (b) => [b],
      ],
      [
        "v5.partner-organizations",
        "/v5/partners/me/organizations",
        "DirectoryOrganizationPublicModel",
        (b) => (b as { data: { organization: unknown }[] }).data.map((e) => e.organization),
      ],
    ];
    for (const [routeId, path, model, views] of cases) {
      const { status, body } = await h.json(path);
      expect(status, path).toBe(200);
      const found = views(body);
      expect(found.length, path).toBeGreaterThan(0);
      for (const view of found) expect(missingFields(model, view), `${path} (${model})`).toEqual([]);
      expect(documentErrors(routeId, body), path).toEqual([]);
      const schema = contract().routes.byId(routeId).response.schema ?? "";
      expect(contract().schemas.validate(schema, body), path).toEqual([]);
    }
  });
});

interface DocumentEntry {
  amount: number;
  initialAmount: number;
  tierId: number;
  options: { amount: number }[];
  payments: { amount: number; shareAmount: number }[];
}

describe("sandbox: an item's amount excludes its options, as the provider's document says", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ at: day("2025-07-01"), entries: 40, shapes: "document" });
  });
  afterAll(() => h.close());

  it("reads the document's definition of an item's amount", () => {
    const schemas = publishedDocument().components.schemas;
    const item = Object.entries(schemas).find(([name]) => name.endsWith(".Statistics.Item"))?.[1];
    expect(item?.properties?.amount?.description).toMatch(/without extra options/);
  });

  it("serves items whose amount is the tier's price, the options beside it, the shares adding up to the payment", async () => {
    const { organizationSlug, formType, formSlug } = h.sandbox.credentials;
    const form = await h.json<{ tiers: { id: number; price: number }[] }>(
      `/v5/organizations/${organizationSlug}/forms/${formType}/${formSlug}/public`,
    );
    const price = new Map(form.body.tiers.map((t) => [t.id, t.price]));
    const page = await h.json<{ data: DocumentEntry[] }>(`${h.formPath("items")}?pageSize=40`);
    const withOptions = page.body.data.filter((e) => e.options.length > 0);
    expect(withOptions.length).toBeGreaterThan(0);
    for (const entry of page.body.data) {
      expect(entry.amount).toBe(price.get(entry.tierId));
      const options = entry.options.reduce((sum, o) => sum + o.amount, 0);
      const shares = entry.payments.reduce((sum, p) => sum + p.shareAmount, 0);
      expect(entry.amount + options).toBe(shares);
    }
    expect(documentErrors("v5.form-items", page.body)).toEqual([]);
  });
});
