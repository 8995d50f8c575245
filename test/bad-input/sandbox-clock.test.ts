import { describe, expect, it } from "vitest";
import { day, harness } from "../sandbox/helpers.js";

describe("sandbox clock jumps are bounded (docs/bad-inputs.md)", () => {
  it("answers 400 naming the bound to a jump past 2099, and every endpoint still answers", async () => {
    const h = await harness({ at: day("2025-06-15"), entries: 3 });
    try {
      const items = `/v5/organizations/${h.sandbox.credentials.organizationSlug}/items`;
      for (const body of [
        { advanceMinutes: 1e12 },
        { advanceSeconds: -1e15 },
        { at: "2150-01-01T00:00:00Z" },
      ]) {
        const answer = await h.send("POST", "/_clock", body, "none");
        expect(answer.status).toBe(400);
        expect(await answer.text()).toContain("between 2000-01-01 and 2099-12-31");
      }
      expect((await h.json<{ day: string }>("/_clock", "none")).body.day).toBe("2025-06-15");
      expect((await h.get(items)).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it("accepts moves that stay within the bound, up to its last day", async () => {
    const h = await harness({ at: day("2025-06-15"), entries: 3 });
    try {
      const items = `/v5/organizations/${h.sandbox.credentials.organizationSlug}/items`;
      expect((await h.send("POST", "/_clock", { day: "2099-12-31" }, "none")).status).toBe(200);
      expect((await h.json<{ day: string }>("/_clock", "none")).body.day).toBe("2099-12-31");
      expect((await h.send("POST", "/_clock", { at: "2000-01-01T00:00:00Z" }, "none")).status).toBe(200);
      expect((await h.send("POST", "/_clock", { advanceMinutes: 60 * 24 * 365 * 30 }, "none")).status).toBe(
        200,
      );
      expect((await h.json<{ day: string }>("/_clock", "none")).body.day).toMatch(/^2029-/);
      expect((await h.get(items)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});
