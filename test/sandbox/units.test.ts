import { describe, expect, it } from "vitest";
import { createClock } from "../../sandbox/clock.js";
import { createTokenCodec } from "../../sandbox/continuation-token.js";
import { formatServiceDate, parisOffsetMinutes } from "../../sandbox/service-dates.js";
import { day } from "./helpers.js";

describe("service dates", () => {
  it("use the Paris offset of the day, switching on the last Sundays of March and October", () => {
    expect(parisOffsetMinutes(Date.parse("2025-03-30T00:59:59Z"))).toBe(60);
    expect(parisOffsetMinutes(Date.parse("2025-03-30T01:00:00Z"))).toBe(120);
    expect(parisOffsetMinutes(Date.parse("2025-10-26T00:59:59Z"))).toBe(120);
    expect(parisOffsetMinutes(Date.parse("2025-10-26T01:00:00Z"))).toBe(60);
  });

  it("write up to 7 fraction digits, trailing zeros trimmed, and never drop the fraction", () => {
    const ms = Date.parse("2024-10-21T15:04:55.302Z");
    expect(formatServiceDate({ ms, ticks: 839 }, "service")).toBe("2024-10-21T17:04:55.3020839+02:00");
    expect(formatServiceDate({ ms, ticks: 0 }, "service")).toBe("2024-10-21T17:04:55.302+02:00");
    expect(formatServiceDate({ ms: Date.parse("2021-02-12T14:57:54Z"), ticks: 0 }, "service")).toBe(
      "2021-02-12T15:57:54.0000001+01:00",
    );
    expect(formatServiceDate({ ms, ticks: 839 }, "bare")).toBe("2024-10-21T17:04:55");
  });
});

describe("continuation tokens", () => {
  const codec = createTokenCodec("secret");
  const cursor = { direction: "desc" as const, afterId: 10_000_123, pageIndex: 3 };

  it("always hold +, / and = and round-trip", () => {
    for (const afterId of [0, 1, 10_000_123, 0xffffffff]) {
      const token = codec.encode("scope", { ...cursor, afterId });
      expect(token).toMatch(/^\+\/\+\/[A-Za-z0-9+/]+=$/);
      expect(codec.decode("scope", token)).toEqual({ ok: true, cursor: { ...cursor, afterId } });
    }
  });

  it("refuse any altered byte, another scope, or another secret", () => {
    const token = codec.encode("scope", cursor);
    const bytes = Buffer.from(token, "base64");
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] = (altered[i] ?? 0) ^ 1;
      expect(codec.decode("scope", altered.toString("base64")).ok, `byte ${i}`).toBe(false);
    }
    expect(codec.decode("other", token).ok).toBe(false);
    expect(createTokenCodec("another").decode("scope", token).ok).toBe(false);
    expect(codec.decode("scope", token.replaceAll("+", " ")).ok).toBe(false);
  });
});

describe("sandbox clock", () => {
  it("starts at 10:00 UTC on --at, runs, advances, jumps and resets", () => {
    let real = 1_000;
    const clock = createClock(day("2025-06-29"), () => real);
    expect(new Date(clock.nowMs()).toISOString()).toBe("2025-06-29T10:00:00.000Z");
    real += 5_000;
    expect(new Date(clock.nowMs()).toISOString()).toBe("2025-06-29T10:00:05.000Z");
    clock.advance(14 * 3_600_000);
    expect(clock.day()).toBe("2025-06-30");
    clock.set(day("2026-01-01"));
    expect(new Date(clock.nowMs()).toISOString()).toBe("2026-01-01T10:00:00.000Z");
    clock.reset();
    expect(new Date(clock.nowMs()).toISOString()).toBe("2025-06-29T10:00:05.000Z");
  });
});
