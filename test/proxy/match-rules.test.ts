import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAssopayError } from "../../core/errors.js";
import { loadCassette } from "../../proxy/cassette/reader.js";
import { resolveRecorderOptions } from "../../proxy/record/options.js";
import { startRecorder } from "../../proxy/record/server.js";
import { matchRulesFromFlags, parseIgnore, parseMatch } from "../../proxy/replay/match-rules.js";
import { resolveReplayOptions } from "../../proxy/replay/options.js";
import { type RunningReplay, startReplay } from "../../proxy/replay/server.js";
import { HEADER, writeCassette } from "./support/cassettes.js";
import { startCountingUpstream } from "./support/counting-upstream.js";
import { send, tempDir } from "./support/http.js";

// A checkout creator sends a fresh UUID and return URL on every call: recorded with rules, the cassette
// replays it without flags; what the rules do not name still has to match.
const CHECKOUT = "/v5/organizations/asso/checkout-intents";
const JSON_TYPE = { "content-type": "application/json" };
const RULES = matchRulesFromFlags(
  ["body.metadata.memberId", "body.returnUrl", "query.ts", "header.x-request-id"],
  ["body.totalAmount:type", "query.ref:/^[A-Z]{3}-\\d+$/", "header.x-version:/^5\\./"],
);

function intent(memberId: string, returnUrl: string, totalAmount: unknown = 1000) {
  return JSON.stringify({ totalAmount, itemName: "Gala", returnUrl, metadata: { memberId } });
}

const counterLike = { path: "/counter", body: { json: { n: 1 } } };

interface Miss {
  detail: string;
  rules?: string[];
  closest: { differences: { field: string }[] }[];
}

describe("matching rules", () => {
  let upstream: Awaited<ReturnType<typeof startCountingUpstream>>;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let file: string;
  let replay: RunningReplay;

  const post = (
    url: string,
    body: string,
    query = "?ts=1&ref=ABC-123",
    headers: Record<string, string> = {},
  ) =>
    send(`${url}${CHECKOUT}${query}`, {
      method: "POST",
      headers: { ...JSON_TYPE, "x-version": "5.1", "x-request-id": "r1", ...headers },
      body,
    });

  beforeAll(async () => {
    upstream = await startCountingUpstream();
    temp = await tempDir();
    file = temp.file("rules.yaml");
    const recorder = await startRecorder({ upstream: upstream.url, cassette: file, matchRules: RULES });
    expect((await post(recorder.url, intent("uuid-1", "https://app.example/r/1"))).status).toBe(200);
    await recorder.close();
    replay = await startReplay({ cassettes: file });
  });

  afterAll(async () => {
    await replay.close();
    await upstream.close();
    await temp.remove();
  });

  it("record writes the rules into the cassette header", async () => {
    const cassette = await loadCassette(file);
    expect(cassette.header.matching).toEqual(RULES);
  });

  it("replays, without flags, requests that differ only where the rules allow", async () => {
    const variants = [
      post(replay.url, intent("uuid-2", "https://app.example/r/2")),
      post(replay.url, intent("uuid-3", "https://app.example/r/3", 99), "?ts=2&ref=XYZ-9"),
      post(replay.url, intent("uuid-4", "x"), "?ref=QRS-0", { "x-version": "5.7", "x-request-id": "r2" }),
    ];
    for (const reply of await Promise.all(variants)) {
      expect(reply.status).toBe(200);
      expect(reply.json()).toMatchObject({ n: 1, method: "POST" });
    }
  });

  it("still misses what the rules do not allow, naming each difference and the rules", async () => {
    const cases: [Promise<Awaited<ReturnType<typeof send>>>, string][] = [
      [post(replay.url, intent("u", "r", "1000")), "body totalAmount"],
      [
        post(replay.url, JSON.stringify({ ...JSON.parse(intent("u", "r")), itemName: "Other" })),
        "body itemName",
      ],
      [post(replay.url, intent("u", "r"), "?ts=1&ref=abc-123"), "query ref"],
      [post(replay.url, intent("u", "r"), "?ts=1&ref=ABC-123&extra=1"), "query extra"],
      [post(replay.url, intent("u", "r"), undefined, { "x-version": "6.0" }), "header x-version"],
    ];
    for (const [pending, field] of cases) {
      const reply = await pending;
      expect(reply.status).toBe(501);
      const miss = reply.json<Miss>();
      expect(miss.closest[0]?.differences.map((d) => d.field)).toEqual([field]);
      expect(miss.detail).toContain(`the closest differs in ${field}`);
      expect(miss.detail).toContain("matching rules: ignore body.metadata.memberId");
      expect(miss.rules).toContain("regex query.ref /^[A-Z]{3}-\\d+$/");
    }
  });

  it("without rules, a fresh memberId and returnUrl are a miss", async () => {
    const strict = temp.file("strict.yaml");
    await writeCassette(
      strict,
      [
        {
          method: "POST",
          path: CHECKOUT,
          requestHeaders: JSON_TYPE,
          requestBody: { text: intent("uuid-1", "https://app.example/r/1") },
          body: { json: { id: 1 } },
        },
      ],
      HEADER,
    );
    const plain = await startReplay({ cassettes: strict });
    const ruled = await startReplay({
      cassettes: strict,
      rules: matchRulesFromFlags(["body.metadata.memberId", "body.returnUrl"], []),
    });
    try {
      const miss = await post(plain.url, intent("uuid-2", "https://app.example/r/2"), "");
      expect(miss.status).toBe(501);
      expect(miss.json<Miss>().detail).toContain("differs in body metadata.memberId and body returnUrl");
      expect(miss.json<Miss>().rules).toBeUndefined();
      // The same rules given as flags (options) to the replay.
      expect((await post(ruled.url, intent("uuid-2", "https://app.example/r/2"), "")).status).toBe(200);
    } finally {
      await plain.close();
      await ruled.close();
    }
  });

  it("ignores fields of form bodies and of every array element with *", async () => {
    const forms = temp.file("forms.yaml");
    const header = {
      ...HEADER,
      matching: matchRulesFromFlags(["body.state", "body.items.*.uid"], []),
    };
    const FORM = { "content-type": "application/x-www-form-urlencoded" };
    await writeCassette(
      forms,
      [
        {
          method: "POST",
          path: "/oauth2/token",
          requestHeaders: FORM,
          requestBody: { text: "grant_type=x&state=1" },
          body: { json: { ok: 1 } },
        },
        {
          method: "POST",
          path: "/v5/carts",
          requestHeaders: JSON_TYPE,
          requestBody: {
            json: {
              items: [
                { id: 1, uid: "a" },
                { id: 2, uid: "b" },
              ],
            },
          },
          body: { json: { ok: 2 } },
        },
      ],
      header,
    );
    const served = await startReplay({ cassettes: forms });
    try {
      const token = (state: string, grant = "x") =>
        send(`${served.url}/oauth2/token`, {
          method: "POST",
          headers: FORM,
          body: `grant_type=${grant}&state=${state}`,
        });
      expect((await token("99")).status).toBe(200);
      expect((await token("1", "y")).status).toBe(501);
      const cart = (items: unknown) =>
        send(`${served.url}/v5/carts`, {
          method: "POST",
          headers: JSON_TYPE,
          body: JSON.stringify({ items }),
        });
      expect(
        (
          await cart([
            { id: 1, uid: "p" },
            { id: 2, uid: "q" },
          ])
        ).status,
      ).toBe(200);
      expect(
        (
          await cart([
            { id: 1, uid: "p" },
            { id: 3, uid: "q" },
          ])
        ).status,
      ).toBe(501);
    } finally {
      await served.close();
    }
  });

  it("refuses a cassette whose header holds a malformed rule, naming the file", async () => {
    const cases: [object, RegExp][] = [
      [{ field: "cookie.x", rule: "ignore" }, /does not match the cassette schema/],
      [{ field: "body.x", rule: "fuzzy" }, /does not match the cassette schema/],
      [
        { field: "query.ref", rule: "regex", pattern: "[" },
        /matching rules: query.ref: not a regular expression/,
      ],
    ];
    for (const [rule, message] of cases) {
      const bad = temp.file("bad-rules.yaml");
      await writeCassette(bad, [counterLike], { ...HEADER, matching: [rule] });
      const error = await startReplay({ cassettes: bad }).then(
        async (r) => {
          await r.close();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(isAssopayError(error) && error.code).toBe("bad-cassette");
      expect((error as Error).message).toMatch(message);
      expect(isAssopayError(error) && error.location?.file).toBe(bad);
    }
  });

  it("parses the flags and refuses malformed ones with a usage error", () => {
    expect(parseIgnore("query.TS")).toEqual({ field: "query.ts", rule: "ignore" });
    expect(parseMatch("body.amount:type")).toEqual({ field: "body.amount", rule: "type" });
    expect(parseMatch("query.ref:/^a$/i")).toEqual({
      field: "query.ref",
      rule: "regex",
      pattern: "^a$",
      flags: "i",
    });
    for (const bad of [
      () => parseIgnore("memberId"),
      () => parseIgnore("cookie.x"),
      () => parseIgnore("body."),
      () => parseMatch("body.amount"),
      () => parseMatch("body.amount:number"),
      () => parseMatch("query.ref:/[/"),
    ]) {
      let caught: unknown;
      try {
        bad();
      } catch (error) {
        caught = error;
      }
      expect(isAssopayError(caught) && caught.code).toBe("usage");
    }
  });
});

describe("the option's name: matchRules, and rules, its name before", () => {
  const ignore = parseIgnore("body.returnUrl");
  const type = parseMatch("body.amount:type");
  const replay = (o: Partial<Parameters<typeof resolveReplayOptions>[0]>) =>
    resolveReplayOptions({ cassettes: "x.yaml", ...o }).matchRules;
  const record = (o: Partial<Parameters<typeof resolveRecorderOptions>[0]>) =>
    resolveRecorderOptions({ upstream: "http://127.0.0.1:1", cassette: "x.yaml", ...o }).matchRules;

  it("takes the rules under either name, for replay and record alike", () => {
    for (const resolve of [replay, record]) {
      expect(resolve({ matchRules: [ignore] })).toEqual([ignore]);
      expect(resolve({ rules: [ignore] })).toEqual([ignore]);
      expect(resolve({})).toEqual([]);
    }
  });

  it("keeps matchRules when both names are given", () => {
    for (const resolve of [replay, record])
      expect(resolve({ matchRules: [type], rules: [ignore] })).toEqual([type]);
  });
});
