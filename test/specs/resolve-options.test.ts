import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { DEFAULTS, resolveOptions, type VerifyOptionsInput } from "../../specs/runner/options.js";

const input = (extra: Partial<VerifyOptionsInput>): VerifyOptionsInput => ({
  target: "http://127.0.0.1:1",
  at: "2026-01-01" as IsoDay,
  organizationSlug: "o",
  formType: "Event",
  formSlug: "f",
  reader: { clientId: "r", clientSecret: "s" },
  ...extra,
});

const refusal = (extra: Partial<VerifyOptionsInput>) => {
  try {
    resolveOptions(input(extra));
  } catch (error) {
    return error;
  }
  return undefined;
};

describe("resolveOptions, called from code", () => {
  it("refuses a number that is not a whole number above 0, and a receiver port out of range, naming it", () => {
    for (const name of [...Object.keys(DEFAULTS), "pageSize", "runTimeoutMs"]) {
      for (const bad of [0, -1, 1.5, Number.NaN]) {
        const error = refusal({ [name]: bad });
        expect(error, `${name}: ${bad}`).toBeInstanceOf(AssopayError);
        expect((error as AssopayError).message).toBe(`${name} must be a whole number above 0, got ${bad}`);
      }
    }
    for (const bad of [-1, 65_536, 80.5]) {
      expect((refusal({ receiverPort: bad }) as AssopayError).message).toBe(
        `--receiver-port must be a port from 0 to 65535, got ${bad}`,
      );
    }
  });

  it("takes every legal value, and the defaults for what is left out or undefined", () => {
    const numbers = { ...Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, 1])), pageSize: 1 };
    expect(refusal({ ...numbers, runTimeoutMs: 1, receiverPort: 0 })).toBeUndefined();
    expect(refusal({ receiverPort: 65_535 })).toBeUndefined();
    const options = resolveOptions(input({ maxPages: undefined, pageSize: undefined }));
    expect(options.maxPages).toBe(DEFAULTS.maxPages);
    expect(options.pageSize).toBeUndefined();
  });
});
