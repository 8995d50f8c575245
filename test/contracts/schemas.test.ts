import { describe, expect, it } from "vitest";
import { loadContract } from "../../contracts/index.js";
import { exampleOf } from "../../contracts/pact/examples.js";
import { openApiInstance, referenceExample } from "../support/reference.js";

const contract = loadContract();
const { schemas } = contract;

/** The seed's reference response entry (form items listing, v5), as the seed and the provider's docs give it. */
const seedEntry = {
  payer: { email: "jean.durant@example.org", firstName: "Jean", lastName: "Durant" },
  items: [{ id: 8868440, amount: 4599, type: "Registration", state: "Processed" }],
  amount: { total: 4599, vat: 0 },
  id: 8868440,
  date: "2025-09-30T11:20:55.8062172+02:00",
};
const seedPagination = {
  pageSize: 20,
  totalCount: -1,
  pageIndex: 1,
  totalPages: -1,
  continuationToken: "20250625_1914333",
};

describe("schemas accept the seed's reference shapes", () => {
  it("list entry, item, amount, payer", () => {
    expect(schemas.validate("list-entry", seedEntry)).toEqual([]);
    expect(schemas.validate("item", seedEntry.items[0])).toEqual([]);
    expect(schemas.validate("amount", seedEntry.amount)).toEqual([]);
    expect(schemas.validate("payer", seedEntry.payer)).toEqual([]);
    expect(schemas.validate("pagination", seedPagination)).toEqual([]);
  });

  it("a whole page of the form items listing, with -1 counts", () => {
    const route = contract.routes.byId("v5.form-items");
    expect(
      schemas.validatePage(route, { data: [seedEntry], pagination: seedPagination }, "minus-one"),
    ).toEqual([]);
  });

  it("dates with Z, ±hh:mm and 1 to 7 fractional digits", () => {
    for (const date of [
      "2025-01-01T00:00:00.1Z",
      "2025-01-01T00:00:00.1234567+02:00",
      "2025-01-01T00:00:00.123-05:30",
    ]) {
      expect(schemas.validate("list-entry", { ...seedEntry, date })).toEqual([]);
    }
  });
});

describe("schemas accept the real payloads of shared/reference/examples", () => {
  const notifications = [
    "notification-form-2021-nnhs.json",
    "notification-order-2021-nnhs.json",
    "notification-payment-2021-nnhs.json",
    "notification-payment-checkout-devdocs-2024.json",
    "notification-payment-donation-devdocs-2024.json",
    "notification-payment-synthetic-davincibot.json",
  ];
  it.each(notifications)("%s is a valid notification", (file) => {
    expect(schemas.validate("notification", referenceExample(file))).toEqual([]);
  });

  it("the membership order notification, whose item ids the copy replaced with null", () => {
    // examples/README.md: the source held a PHP variable where the item id was; the copy put null there.
    const payload = structuredClone(referenceExample("notification-order-membership-adolices-2024.json")) as {
      data: { items: { id: number | null }[] };
    };
    for (const item of payload.data.items) item.id ??= 1;
    expect(schemas.validate("notification", payload)).toEqual([]);
  });

  it("checkout intents, paid and not paid", () => {
    expect(
      schemas.validate("checkout-intent", referenceExample("checkout-intent-get-paid-sandbox-2024.json")),
    ).toEqual([]);
    expect(
      schemas.validate("checkout-intent", referenceExample("checkout-intent-get-not-paid-sandbox-2024.json")),
    ).toEqual([]);
  });

  it("the token response and the refund error envelope", () => {
    expect(
      schemas.validate("token", {
        ...(referenceExample("token-response-authorization-code.json") as object),
      }),
    ).toEqual([]);
    expect(schemas.validate("error", referenceExample("refund-error-envelope-devdocs.json"))).toEqual([]);
  });
});

describe("schemas accept instances of the provider's OpenAPI models (every property filled)", () => {
  const pairs: [string, string][] = [
    ["Order", "order"],
    ["OrderDetail", "order-detail"],
    ["Payment", "payment"],
    ["Payer", "payer"],
    ["PaginationModel", "pagination"],
    ["FormPublicModel", "public-form"],
    ["PartnerPublicModel", "partner"],
    ["ApiUrlNotificationModel", "notification-url"],
    ["InitCheckoutBody", "checkout-intent-request"],
    ["InitCheckoutResponse", "checkout-intent-created"],
    ["CheckoutIntentResponse", "checkout-intent"],
    ["OrderAmountModel", "amount"],
  ];
  it.each(pairs)("OpenAPI %s is a valid %s", (component, schema) => {
    expect(schemas.validate(schema, openApiInstance(component))).toEqual([]);
  });
});

describe("schemas reject a targeted mutation of each required field", () => {
  const named = schemas.names().filter((n) => !["common"].includes(n));

  /** Every path to a value in a minimal example: each one is required, since the example holds nothing else. */
  const paths = (value: unknown, prefix: (string | number)[] = []): (string | number)[][] => {
    if (value === null || typeof value !== "object") return [prefix];
    const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    return [
      prefix,
      ...keys.flatMap((k) => paths((value as Record<string, unknown>)[k as string], [...prefix, k])),
    ];
  };
  const mutate = (
    value: unknown,
    path: (string | number)[],
    change: (parent: Record<string, unknown>, key: string) => void,
  ) => {
    const copy = structuredClone(value) as Record<string, unknown>;
    let parent = copy;
    for (const key of path.slice(0, -1)) parent = parent[key as string] as Record<string, unknown>;
    change(parent, String(path[path.length - 1]));
    return copy;
  };

  it.each(named)("%s: the minimal example is valid", (name) => {
    expect(schemas.validate(name, exampleOf(schemas, name).value)).toEqual([]);
  });

  it.each(named)("%s: removing any required property or changing its type is flagged", (name) => {
    const example = exampleOf(schemas, name).value;
    const targets = paths(example).filter((p) => p.length > 0 && typeof p[p.length - 1] === "string");
    for (const path of targets) {
      const removed = mutate(example, path, (parent, key) => {
        delete parent[key];
      });
      expect(schemas.validate(name, removed), `removing ${path.join(".")}`).not.toEqual([]);
      const retyped = mutate(example, path, (parent, key) => {
        parent[key] = typeof parent[key] === "string" ? 1200 : "1200";
      });
      expect(schemas.validate(name, retyped), `retyping ${path.join(".")}`).not.toEqual([]);
    }
  });
});

describe("validation errors are sentences", () => {
  it("names the path, the expected type and the value", () => {
    const page = {
      data: [seedEntry, seedEntry, seedEntry, { ...seedEntry, amount: { total: "1200", vat: 0 } }],
      pagination: seedPagination,
    };
    const diagnostics = schemas.validatePage(contract.routes.byId("v5.form-items"), page, "minus-one");
    expect(diagnostics.map((d) => d.message)).toEqual([
      'response.data[3].amount.total must be integer, got string "1200"',
    ]);
  });

  it("says what a date must look like", () => {
    const [first] = schemas.validate("list-entry", { ...seedEntry, date: "2025-09-30T11:20:55+02:00" });
    expect(first?.message).toBe(
      'response.date must be an ISO 8601 timestamp with a fractional-second part (1 to 7 digits) and a UTC offset (seed), got string "2025-09-30T11:20:55+02:00"',
    );
  });

  it("flags count fields after their removal, and -1 counts where real ones are due", () => {
    const route = contract.routes.byId("v5.org-payments");
    const page = { data: [], pagination: seedPagination };
    expect(schemas.validatePage(route, page, "absent").map((d) => d.message)).toEqual([
      "response.pagination.totalCount must be absent, got integer -1",
      "response.pagination.totalPages must be absent, got integer -1",
    ]);
    expect(schemas.validatePage(route, page, "real").map((d) => d.path)).toEqual([
      "response.pagination.totalCount",
      "response.pagination.totalPages",
    ]);
    expect(
      schemas.validatePage(route, { data: [], pagination: { pageSize: 20, pageIndex: 1 } }, "absent"),
    ).toEqual([]);
  });

  it("names a missing property by its full path", () => {
    const { payer: _payer, ...withoutPayer } = seedEntry;
    expect(schemas.validate("list-entry", withoutPayer).map((d) => d.message)).toEqual([
      "response.payer is required but missing",
    ]);
  });
});
