import { describe, expect, it } from "vitest";
import { datedCountChange } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { compareShapes } from "../../specs/rerun/shape.js";
import { createLearntValues } from "../../specs/rerun/values.js";
import { contract } from "./support/harness.js";

describe("rerun: structure compared with the recording", () => {
  it("flags fields added, removed and retyped", () => {
    const recorded = {
      data: [{ id: 1, amount: { total: 10 }, payer: { email: "a@b.c" } }],
      pagination: { pageSize: 20 },
    };
    const target = { data: [{ id: "1", amount: { total: 10, vat: 0 } }], pagination: { pageSize: 20 } };
    expect(compareShapes(recorded, target)).toEqual([
      "retyped data[].id: recorded number, now string",
      "added data[].amount.vat (number)",
      "removed data[].payer",
    ]);
  });

  it("ignores values, list lengths, empty values and what a dated change explains", () => {
    const recorded = {
      data: [{ id: 1, date: "2024-10-21T17:04:55.1+02:00", note: null }],
      pagination: { totalCount: 45, totalPages: 3, continuationToken: "abc" },
    };
    const target = {
      data: [
        { id: 2, date: "2025-01-01T00:00:00.0000000+00:00", note: "x" },
        { id: 3, date: "2025-01-02T00:00:00.0000000+00:00", note: null },
      ],
      pagination: { continuationToken: "+/=" },
    };
    expect(compareShapes(recorded, target, ["pagination.totalCount", "pagination.totalPages"])).toEqual([]);
    expect(compareShapes(recorded, target)).toEqual([
      "removed pagination.totalCount",
      "removed pagination.totalPages",
    ]);
  });
});

describe("rerun: dated changes of the counts", () => {
  const route = contract().routes.byId("v5.form-items");
  const at = (day: string) => contract().timeline.datedRulesAt(route, day as IsoDay);

  it("names the entry crossed, forwards and backwards", () => {
    const removed = datedCountChange(
      at("2026-01-01"),
      "absent",
      { totalCount: 45, totalPages: 3, pageSize: 20 },
      true,
      contract().timeline,
    );
    expect(removed?.entry.id).toBe("count-fields-removed");
    expect(removed?.inForce).toBe(true);
    const flipped = datedCountChange(
      at("2025-04-01"),
      "minus-one",
      { totalCount: 45, totalPages: 3, pageSize: 20 },
      undefined,
      contract().timeline,
    );
    expect(flipped?.entry.id).toBe("withcount-default-false");
    const before = datedCountChange(
      at("2025-01-15"),
      "real",
      { totalCount: -1, totalPages: -1, pageSize: 20 },
      undefined,
      contract().timeline,
    );
    expect(before?.entry.id).toBe("withcount-default-false");
    expect(before?.inForce).toBe(false);
  });

  it("finds no change where the recorded counts were legal at --at too, or legal at no date", () => {
    const timeline = contract().timeline;
    expect(
      datedCountChange(
        at("2025-04-01"),
        "real",
        { totalCount: 45, totalPages: 3, pageSize: 20 },
        true,
        timeline,
      ),
    ).toBeUndefined();
    expect(
      datedCountChange(
        at("2025-04-01"),
        "minus-one",
        { totalCount: -1, totalPages: -1, pageSize: 20 },
        undefined,
        timeline,
      ),
    ).toBeUndefined();
    expect(
      datedCountChange(
        at("2026-01-01"),
        "absent",
        { totalCount: "45", totalPages: 3, pageSize: 20 },
        true,
        timeline,
      ),
    ).toBeUndefined();
  });
});

describe("rerun: values the target issues", () => {
  it("gives the target's value at the place the recording took it from, the latest place first", () => {
    const values = createLearntValues();
    values.learn(0, { access_token: "<secret:aa>", data: [{ id: 7 }, { id: 8 }] });
    values.answer(0, { access_token: "real-token", data: [{ id: 70 }, { id: 80 }] });
    values.learn(1, { id: 8, file: { url: "http://up/v5/orders/8/files/1234" } });
    values.answer(1, { id: 81, file: { url: "http://there/v5/orders/81/files/999" } });
    expect(values.resolve("<secret:aa>")).toEqual({ ok: true, value: "real-token" });
    expect(values.resolve("7")).toEqual({ ok: true, value: "70" });
    expect(values.resolve("8")).toEqual({ ok: true, value: "81" });
    expect(values.resolve("1234")).toEqual({ ok: true, value: "999" });
  });

  it("leaves alone what no response held, and says where a value is missing from the target's answer", () => {
    const values = createLearntValues();
    values.learn(0, { data: [{ id: 7, amount: 1500 }], label: "gala" });
    values.answer(0, { data: [] });
    expect(values.resolve("1500")).toBeUndefined();
    expect(values.resolve("gala")).toBeUndefined();
    expect(values.resolve("7")).toMatchObject({ ok: false, reason: expect.stringMatching(/data\[0\]\.id/) });
  });
});
