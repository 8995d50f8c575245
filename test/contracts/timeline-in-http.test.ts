import { parseItem } from "structured-headers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Route, timelineBoundaries } from "../../contracts/index.js";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { type IsoDay, parseHttpDate } from "../../core/dates.js";
import { startReplay } from "../../proxy/replay/server.js";
import { writeCassette } from "../proxy/support/cassettes.js";
import { send, tempDir } from "../proxy/support/http.js";
import { contract, type Harness, harness } from "../sandbox/helpers.js";

/** What one answer announced: its three headers as sent (absent ones undefined). */
interface Announced {
  where: string;
  deprecation: string | undefined;
  sunset: string | undefined;
  link: string | undefined;
}

/** Every day the timeline turns on (both sides of each change), and today. */
const days = () => timelineBoundaries(contract().timeline).map((d) => d.day);

/** The malformed values among the answers: a Deprecation no RFC 9651 Date, a Sunset no IMF-fixdate. */
function malformed(seen: readonly Announced[]): string[] {
  const out: string[] = [];
  for (const { where, deprecation, sunset } of seen) {
    if (deprecation !== undefined) {
      let item: unknown;
      try {
        item = parseItem(deprecation)[0];
      } catch {
        item = undefined;
      }
      if (!(item instanceof Date)) out.push(`${where}: Deprecation ${deprecation}`);
    }
    if (sunset !== undefined && parseHttpDate(sunset) === undefined) out.push(`${where}: Sunset ${sunset}`);
  }
  return out;
}

function announced(where: string, headers: Headers | Record<string, unknown>): Announced {
  const get = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return typeof value === "string" ? value : undefined;
  };
  return { where, deprecation: get("deprecation"), sunset: get("sunset"), link: get("link") };
}

const secondsOf = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

describe("the sandbox announces the timeline's changes in HTTP", () => {
  let h: Harness;
  const seen: Announced[] = [];

  function pathOf(route: Route): string {
    const c = h.sandbox.credentials;
    const values: Record<string, string> = {
      organizationSlug: c.organizationSlug,
      formType: c.formType,
      formSlug: c.formSlug,
    };
    return route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? "1");
  }

  async function ask(route: Route, day: string): Promise<Announced> {
    const path = pathOf(route);
    const response =
      route.method === "GET"
        ? await h.get(path)
        : await h.send(route.method, path, route.method === "DELETE" ? "" : {});
    await response.arrayBuffer();
    return announced(`${day} ${route.id} (${response.status})`, response.headers);
  }

  beforeAll(async () => {
    h = await harness({ entries: 5 });
    for (const day of days()) {
      await h.clock({ day });
      h.forgetTokens();
      for (const route of contract().routes.all) {
        const answer = await ask(route, day);
        seen.push(answer);
        // Exactly what the timeline says of the route at that day, on whatever the route answered.
        const expected = contract().timeline.deprecationHeadersAt(route, day as IsoDay);
        expect({ ...answer, where: undefined }, answer.where).toEqual({
          where: undefined,
          deprecation: expected.deprecation,
          sunset: expected.sunset,
          link: expected.link,
        });
      }
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  it("sends no malformed Deprecation or Sunset, at any day the timeline turns on", () => {
    expect(seen.filter((a) => a.deprecation !== undefined).length).toBeGreaterThan(0);
    expect(seen.filter((a) => a.sunset !== undefined).length).toBeGreaterThan(0);
    expect(malformed(seen)).toEqual([]);
  });

  it("at 2025-06-15 announces the v3 switch-off on a v3 route, and nothing on a route no change affects", async () => {
    await h.clock({ day: "2025-06-15" });
    h.forgetTokens();
    const v3 = await ask(contract().routes.byId("v3.form-items"), "2025-06-15");
    expect(v3.deprecation).toBe(`@${secondsOf("2021-06-30")}`);
    expect(parseHttpDate(v3.sunset ?? "")?.toISOString()).toBe("2025-06-30T00:00:00.000Z");
    expect(v3.link).toContain('rel="sunset"');
    expect(v3.link).toContain('rel="deprecation"');
    for (const id of ["v5.organization", "v5.checkout-create", "v5.form-items"]) {
      const answer = await ask(contract().routes.byId(id), "2025-06-15");
      expect(answer, id).toMatchObject({ deprecation: undefined, sunset: undefined, link: undefined });
    }
  });

  it("announces the counts' removal on the six listings before it, and not after", async () => {
    const listing = contract().routes.byId("v5.org-payments");
    await h.clock({ day: "2025-04-01" });
    h.forgetTokens();
    const before = await ask(listing, "2025-04-01");
    expect(parseItem(before.deprecation ?? "")[0]).toEqual(new Date("2025-03-15T00:00:00Z"));
    expect(parseHttpDate(before.sunset ?? "")?.toISOString()).toBe("2025-05-05T00:00:00.000Z");
    await h.clock({ day: "2025-05-10" });
    h.forgetTokens();
    expect(await ask(listing, "2025-05-10")).toMatchObject({ deprecation: undefined, sunset: undefined });
  });
});

describe("replay --at announces the same changes on recorded answers", () => {
  const V3 = "/v3/organizations/asso/items";
  const V5 = "/v5/organizations/asso/forms/Event/gala/orders";
  const PLAIN = "/v5/partners/me";
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;

  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("announced.yaml");
    await writeCassette(file, [
      { path: V3, body: { json: { items: [], pagination: {} } } },
      { path: V5, body: { json: { data: [], pagination: {} } } },
      { path: PLAIN, body: { json: { name: "partner" } } },
    ]);
  });

  afterAll(async () => {
    await temp?.remove();
  });

  async function replayed(day: string | undefined): Promise<Map<string, Announced>> {
    const replay = await startReplay({ cassettes: file, ...(day ? { at: day } : {}), contract: contract() });
    try {
      const out = new Map<string, Announced>();
      for (const path of [V3, V5, PLAIN]) {
        const reply = await send(`${replay.url}${path}`);
        out.set(path, announced(`${day} ${path} (${reply.status})`, reply.headers));
      }
      return out;
    } finally {
      await replay.close();
    }
  }

  it("sends no malformed Deprecation or Sunset, and what the timeline says, at every day it turns on", async () => {
    const seen: Announced[] = [];
    for (const day of days()) {
      const answers = await replayed(day);
      for (const [path, answer] of answers) {
        const route = contract().routes.match("GET", path)?.route as Route;
        expect({ ...answer, where: undefined }, answer.where).toEqual({
          where: undefined,
          ...contract().timeline.deprecationHeadersAt(route, day as IsoDay),
        });
        seen.push(answer);
      }
    }
    expect(seen.filter((a) => a.deprecation !== undefined).length).toBeGreaterThan(0);
    expect(malformed(seen)).toEqual([]);
  });

  it("at 2025-06-15 announces the switch-off on the v3 route only; without --at, nothing", async () => {
    const at = await replayed("2025-06-15");
    expect(at.get(V3)?.deprecation).toBe(`@${secondsOf("2021-06-30")}`);
    expect(at.get(V3)?.sunset).toBe("Mon, 30 Jun 2025 00:00:00 GMT");
    expect(at.get(PLAIN)).toMatchObject({ deprecation: undefined, sunset: undefined, link: undefined });
    expect(at.get(V5)).toMatchObject({ deprecation: undefined, sunset: undefined, link: undefined });
    for (const answer of (await replayed(undefined)).values()) {
      expect(answer).toMatchObject({ deprecation: undefined, sunset: undefined, link: undefined });
    }
  });
});

describe("the OpenAPI export says the same dates", () => {
  type Responses = Record<string, { headers?: Record<string, { example: string }> }>;
  const responsesOf = (day: string, id: string) => {
    const route = contract().routes.byId(id);
    const doc = exportOpenApi(contract(), { at: day as IsoDay }) as {
      paths: Record<string, Record<string, { responses: Responses; deprecated?: boolean }>>;
    };
    return doc.paths[route.path]?.[route.method.toLowerCase()];
  };

  it("puts the headers the sandbox sends at --at on every response of an announced operation, and none elsewhere", () => {
    for (const [day, id] of [
      ["2025-06-15", "v3.form-items"],
      ["2025-04-01", "v5.org-payments"],
    ] as const) {
      const expected = contract().timeline.deprecationHeadersAt(contract().routes.byId(id), day as IsoDay);
      const responses = Object.values(responsesOf(day, id)?.responses ?? {});
      expect(responses.length).toBeGreaterThan(1);
      for (const response of responses) {
        expect(response.headers?.Deprecation?.example).toBe(expected.deprecation);
        expect(response.headers?.Sunset?.example).toBe(expected.sunset);
        expect(response.headers?.Link?.example).toBe(expected.link);
      }
    }
    expect(responsesOf("2025-06-15", "v3.form-items")?.deprecated).toBe(true);
    for (const response of Object.values(responsesOf("2025-06-15", "v5.organization")?.responses ?? {})) {
      expect(response.headers).toBeUndefined();
    }
  });
});

describe("the malformed-value finder of this test", () => {
  it("flags the draft's `true`, a bare number and an HTTP-date of another form", () => {
    expect(
      malformed([
        { where: "a", deprecation: "true", sunset: undefined, link: undefined },
        { where: "b", deprecation: "1751241600", sunset: "Monday, 30-Jun-25 00:00:00 GMT", link: undefined },
        { where: "c", deprecation: "@1751241600", sunset: "Mon, 30 Jun 2025 00:00:00 GMT", link: undefined },
      ]),
    ).toEqual([
      "a: Deprecation true",
      "b: Deprecation 1751241600",
      "b: Sunset Monday, 30-Jun-25 00:00:00 GMT",
    ]);
  });
});
