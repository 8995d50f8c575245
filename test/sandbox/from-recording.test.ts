import { describe, expect, it } from "vitest";
import { dataFromRecording } from "../../sandbox/data/from-recording.js";
import { printDataFile } from "../../sandbox/data/print-data.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";

const ORDER = {
  id: 4242,
  date: "2025-02-01T10:00:00.123+01:00",
  formSlug: "fete",
  formType: "event",
  organizationSlug: "asso-du-coin",
  payer: {
    firstName: "<secret:0123456789abcdef>",
    lastName: "Fake",
    email: "x.y@example.org",
    country: "??",
  },
  items: [
    {
      id: 4243,
      name: "Entrée",
      tierId: 77,
      amount: 1000,
      type: "Registration",
      options: [{ name: "Repas", amount: 800, optionId: 9 }],
      customFields: [
        { id: 5, name: "Société", type: "TextInput", answer: "Acme" },
        { id: 6, name: "Pièce", type: "File", answer: "https://service.example/v5/orders/4242/files/1" },
        { id: 7, name: "Odd", type: "Hologram", answer: "?" },
      ],
    },
  ],
  payments: [{ id: 99, amount: 1234, state: "Teleported" }],
};

describe("dataFromRecording: what a recording only hints at is completed", () => {
  it("declares the organization and form an order detail names, with the tier, fields and options it shows", () => {
    const data = dataFromRecording([{ method: "GET", path: "/v5/orders/4242", status: 200, body: ORDER }]);
    const form = data.organizations?.[0]?.forms?.[0];
    expect(data.organizations?.map((o) => o.slug)).toEqual(["asso-du-coin"]);
    expect(form).toMatchObject({ type: "Event", slug: "fete" });
    expect(form?.tiers).toEqual([{ id: 77, label: "Entrée", type: "Registration", price: 1000 }]);
    expect(form?.customFields?.map((f) => [f.label, f.type])).toEqual([
      ["Société", "TextInput"],
      ["Pièce", "File"],
    ]);
    expect(form?.extraOptions).toEqual([{ id: 9, label: "Repas", price: 800 }]);
    const order = Array.isArray(form?.orders) ? form.orders[0] : undefined;
    // Redacted values stay; a country that is not three letters, an unknown state and payments that do
    // not add up (1234 for 1000 + 800) are left to the defaults.
    expect(order).toMatchObject({
      id: 4242,
      itemId: 4243,
      tier: "Entrée",
      amount: 1000,
      options: ["Repas"],
      answers: { Société: "Acme" },
      payer: { firstName: "<secret:0123456789abcdef>", lastName: "Fake", email: "x.y@example.org" },
      payments: [{ id: 99 }],
    });
    const built = buildSandboxData(parseDataFile(printDataFile(data, ["t"]), "derived"), 1);
    const served = built.forms[0]?.declared?.[0];
    expect(served?.payments.map((p) => [p.id, p.amount, p.state])).toEqual([[99, 1800, "Authorized"]]);
    expect(served?.answers.map((a) => a.field.label)).toEqual(["Société", "Pièce"]);
  });

  it("keeps what a recording states whole: payments that add up, a public form's own fields", () => {
    const paid = { ...ORDER, payments: [{ id: 99, amount: 1800, state: "Refunded" }] };
    const publicForm = {
      title: "Fête",
      tiers: [{ id: 77, label: "Entrée", tierType: "Registration", price: 1000 }],
      customFields: [{ id: 5, label: "Société", type: "TextInput", isRequired: true }],
      extraOptions: [{ id: 9, label: "Repas", price: 800 }],
    };
    const data = dataFromRecording([
      {
        method: "GET",
        path: "/v5/organizations/asso-du-coin/forms/Event/fete/public",
        status: 200,
        body: publicForm,
      },
      { method: "GET", path: "/v5/orders/4242", status: 200, body: paid },
      { method: "GET", path: "/v5/orders/4243", status: 404, body: { errors: [] } },
    ]);
    const form = data.organizations?.[0]?.forms?.[0];
    expect(form?.title).toBe("Fête");
    expect(form?.customFields).toEqual([{ id: 5, label: "Société", type: "TextInput", required: true }]);
    const orders = Array.isArray(form?.orders) ? form.orders : [];
    expect(orders.map((o) => o.payments)).toEqual([[{ id: 99, amount: 1800, state: "Refunded" }]]);
    expect(orders[0]?.answers).toEqual({ Société: "Acme" });
  });
});
