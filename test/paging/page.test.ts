import { describe, expect, it } from "vitest";
import {
  entryOrganization,
  judgePage,
  loadContract,
  readPage,
  readRoutePage,
} from "../../contracts/index.js";

const page = (data: unknown, pagination: unknown = { pageSize: 3, continuationToken: "a+b/c=" }) => ({
  data,
  pagination,
});

describe("the page reader", () => {
  it("reads the entries, their integer ids in order, the token and the counts", () => {
    const read = readPage(page([{ id: 3 }, { id: "x" }, { id: 1.5 }, { id: 2 }]), "data");
    expect(read).toMatchObject({ ok: true, ids: [3, 2], token: "a+b/c=", counts: { pageSize: 3 } });
  });

  it("names the entries of a listing without ids by the fields its route names, a dotted path reaching into an object", () => {
    const forms = [
      { formType: "Event", formSlug: "gala" },
      { formType: "Membership", formSlug: "adhesion", id: 7 },
      { formType: "Event", formSlug: "" },
      { formType: "Event" },
    ];
    expect(readPage(page(forms), "data", ["formType", "formSlug"])).toMatchObject({
      ids: ["Event/gala", "Membership/adhesion"],
    });
    const routes = loadContract().routes;
    expect(readRoutePage(page(forms), routes.byId("v5.organization-forms"))).toMatchObject({
      ids: ["Event/gala", "Membership/adhesion"],
    });
    const linked = [
      { organization: { organizationSlug: "club" } },
      { organization: null },
      { organizationSlug: "x" },
    ];
    expect(readRoutePage(page(linked), routes.byId("v5.partner-organizations"))).toMatchObject({
      ids: ["club"],
    });
    // Where the route names none, the integer id names an entry, as before.
    expect(readRoutePage(page([{ id: 4 }, ...forms]), routes.byId("v5.org-orders"))).toMatchObject({
      ids: [4, 7],
    });
  });

  it("reads the organization an entry names, on itself or its order, in lower case", () => {
    expect(
      [
        { organizationSlug: "Club" },
        { order: { organizationSlug: "club-voisin" } },
        { organizationSlug: "" },
        { order: null },
        "not an entry",
      ].map(entryOrganization),
    ).toEqual(["club", "club-voisin", undefined, undefined, undefined]);
    const read = readPage(page([{ id: 1, organizationSlug: "A" }, { id: 2 }]), "data");
    expect(read).toMatchObject({ ids: [1, 2], organizations: ["a", undefined] });
  });

  it("reads `items` where the route names its result array so", () => {
    expect(readPage({ items: [{ id: 1 }] }, "items")).toMatchObject({ ok: true, ids: [1], token: undefined });
  });

  it.each([
    [{ pagination: {} }, 'the result array "data" is missing'],
    [{ data: null }, '"data" is null, not a list'],
    [{ data: {} }, '"data" is object, not a list'],
    [[1], "the body is a list"],
    ["text", "the body is string"],
  ])("says why %j is no page", (body, why) => {
    const read = readPage(body, "data");
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.why).toContain(why);
  });

  it.each([[null], [""], [42], [undefined]])("takes a token of %j as no token", (token) => {
    expect(readPage(page([], { continuationToken: token }), "data")).toMatchObject({
      ok: true,
      token: undefined,
    });
  });
});

describe("the page judge", () => {
  const so = { index: 2, requestedSize: 3, sentToken: "t1", seen: new Set([1, 2, 3]), firstIds: [1, 2, 3] };
  const read = (data: unknown, pagination?: unknown) => {
    const r = readPage(page(data, pagination), "data");
    if (!r.ok) throw new Error(r.why);
    return r;
  };

  it("flags a page larger than its page size, a repeated entry, a token leading back, a token repeated", () => {
    expect(judgePage(read([{ id: 4 }, { id: 5 }, { id: 6 }, { id: 7 }]), so).map((f) => f.kind)).toEqual([
      "oversized",
    ]);
    expect(judgePage(read([{ id: 3 }, { id: 4 }]), so)).toEqual([
      { kind: "duplicate", rule: "pagination.no-duplicates", ids: [3] },
    ]);
    expect(judgePage(read([{ id: 1 }, { id: 2 }, { id: 3 }]), so).map((f) => f.kind)).toEqual([
      "token-ignored",
      "duplicate",
    ]);
    expect(judgePage(read([{ id: 9 }], { continuationToken: "t1" }), so).map((f) => f.rule)).toEqual([
      "pagination.end-is-empty-array",
    ]);
  });

  it("tells a second page that repeats the first by its entries where they carry no id", () => {
    const forms = [{ formSlug: "a" }, { formSlug: "b" }];
    const idless = { ...so, seen: new Set<number>(), firstIds: [], firstEntries: JSON.stringify(forms) };
    expect(judgePage(read(forms, { continuationToken: "t1" }), idless).map((f) => f.kind)).toEqual([
      "token-ignored",
      "token-repeated",
    ]);
    // Other entries answering the token they were asked with: a listing that would never end, not the first page.
    expect(
      judgePage(read([{ formSlug: "c" }], { continuationToken: "t1" }), idless).map((f) => f.kind),
    ).toEqual(["token-repeated"]);
  });

  it("passes short pages, an empty page echoing its token, and a page without counts", () => {
    expect(judgePage(read([{ id: 4 }]), so)).toEqual([]);
    expect(judgePage(read([], { continuationToken: "t1" }), so)).toEqual([]);
    expect(judgePage(read([{ id: 4 }, { id: 5 }], {}), { ...so, requestedSize: undefined })).toEqual([]);
  });
});
