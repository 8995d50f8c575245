import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { pactFilesAt } from "../../specs/pact/pact-files.js";
import { tokenEndpointSkip } from "../../specs/pact/verify-pacts.js";
import { resolveOptions, type VerifyOptionsInput } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import {
  createTransport,
  type Incoming,
  type Outgoing,
  type Transport,
} from "../../specs/runner/transport.js";
import type { SpecCheck } from "../../specs/runner/verdicts.js";
import { runVerifyCli } from "./support/cli.js";
import { contract } from "./support/harness.js";

const AT = "2026-01-01" as IsoDay;
const TARGET = "http://mock.test";

/** A target answered in-process: `answer` gets each request's method and URL; every URL sent is kept. */
function fakeTarget(answer: (method: string, url: URL) => { status: number; body: string }) {
  const sent: string[] = [];
  const transport: Transport = {
    async exchange(outgoing: Outgoing): Promise<Incoming> {
      sent.push(`${outgoing.method} ${outgoing.url}`);
      const { status, body } = answer(outgoing.method, new URL(outgoing.url));
      return {
        status,
        headers: new Headers({ "content-type": "application/json" }),
        bytes: Buffer.from(body),
      };
    },
    close() {},
  };
  return { transport, sent };
}

const input = (extra: Partial<VerifyOptionsInput>): VerifyOptionsInput => ({
  target: TARGET,
  at: AT,
  organizationSlug: "o",
  formType: "Event",
  formSlug: "f",
  ...extra,
});

const CLIENTS = { reader: { clientId: "r", clientSecret: "s" } };

describe("a target without a token endpoint", () => {
  it("names the missing endpoint and the flags when the token URL answers 404, not the credentials", async () => {
    const { transport } = fakeTarget(() => ({ status: 404, body: '{"title":"Route not resolved"}' }));
    const run = runVerify(resolveOptions(input(CLIENTS)), [], { contract: contract(), transport });
    const error = (await run.catch((e: unknown) => e)) as AssopayError;
    expect(error).toBeInstanceOf(AssopayError);
    expect(error.message).toMatch(
      /^the target has no token endpoint: POST http:\/\/mock\.test\/oauth2\/token answered 404/,
    );
    expect(error.hint).toMatch(/--bearer TOKEN or --no-auth/);
    expect(error.hint).toMatch(/--api-root \//);
    expect(`${error.message} ${error.hint}`).not.toMatch(/--client-id|refused/);
  });

  it("blames the credentials for a 400 or a 401 from a token endpoint that exists, and only then", async () => {
    for (const status of [400, 401]) {
      const { transport } = fakeTarget(() => ({ status, body: '{"error":"invalid_client"}' }));
      const run = runVerify(resolveOptions(input(CLIENTS)), [], { contract: contract(), transport });
      const error = (await run.catch((e: unknown) => e)) as AssopayError;
      expect(error.message).toMatch(/^the target refused the reader credentials/);
      expect(error.hint).toMatch(/--client-id and --client-secret/);
    }
    const { transport } = fakeTarget(() => ({ status: 500, body: "oops" }));
    const run = runVerify(resolveOptions(input(CLIENTS)), [], { contract: contract(), transport });
    const error = (await run.catch((e: unknown) => e)) as AssopayError;
    expect(error.message).toMatch(/^the target's token endpoint gave no token: .* answered 500/);
    expect(error.hint).not.toMatch(/--client-id/);
  });

  it("sends a fixed bearer token, or no Authorization header with --no-auth, and asks no token", async () => {
    const seen: (string | undefined)[] = [];
    const check: SpecCheck = {
      id: "versions/probe",
      group: "versions",
      rule: "versions.v5-unaffected",
      title: "probe",
      run: async (ctx) => {
        seen.push(await ctx.authorization("reader"));
        return { verdict: "pass", reason: "probed" };
      },
    };
    for (const auth of [
      { kind: "bearer", reader: "fixed", admin: undefined } as const,
      { kind: "none" } as const,
    ]) {
      const { transport, sent } = fakeTarget(() => ({ status: 200, body: "{}" }));
      const report = await runVerify(resolveOptions(input({ auth })), [check], {
        contract: contract(),
        transport,
      });
      expect(report.outcomes[0]?.verdict).toBe("pass");
      expect(sent.filter((line) => line.includes("/oauth2/token"))).toEqual([]);
    }
    expect(seen).toEqual(["Bearer fixed", undefined]);
  });

  it("refuses an --api-root that is not a path", async () => {
    const sandboxed = await runVerifyCli(["--api-root", "/"]);
    expect(sandboxed.code).toBe(2);
    expect(sandboxed.stderr).toMatch(/--api-root needs --target/);

    expect(() => resolveOptions(input({ ...CLIENTS, apiRoot: "v5" }))).toThrow(/--api-root must be a path/);
    expect(resolveOptions(input({ ...CLIENTS, apiRoot: "/" })).apiRoot).toBe("");
    expect(resolveOptions(input({ ...CLIENTS, apiRoot: "/api/v5/" })).apiRoot).toBe("/api/v5");
    expect(resolveOptions(input(CLIENTS)).apiRoot).toBe("/v5");
  });
});

describe("a target serving the v5 paths under another root", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, at: AT, entries: 30, contract: contract() });
  });
  afterAll(() => sandbox.close());

  it("is sent every v5 path under --api-root, through a transport plugged in", async () => {
    // The sandbox serves /v5; this transport plays a mock serving the same paths at /api/root.
    const real = createTransport();
    const sent: string[] = [];
    const transport: Transport = {
      exchange(outgoing) {
        sent.push(outgoing.url);
        return real.exchange({
          ...outgoing,
          url: outgoing.url.replace(`${sandbox.url}/api/root/`, `${sandbox.url}/v5/`),
        });
      },
      close: () => real.close(),
    };
    const { credentials } = sandbox;
    const options = resolveOptions({
      target: sandbox.url,
      at: AT,
      apiRoot: "/api/root",
      reader: credentials.reader,
      organizationSlug: credentials.organizationSlug,
      formType: credentials.formType,
      formSlug: credentials.formSlug,
      only: ["schemas/listing-pages"],
    });
    const report = await runVerify(options, allChecks(), { contract: contract(), transport });
    expect(report.outcomes.map((o) => [o.id, o.verdict])).toEqual([["schemas/listing-pages", "pass"]]);
    const listings = sent.filter((url) => !url.endsWith("/oauth2/token"));
    expect(listings.length).toBeGreaterThan(0);
    for (const url of listings) expect(url.startsWith(`${sandbox.url}/api/root/`), url).toBe(true);
  });
});

describe("a target's nonsense", () => {
  const follow = (id: string, url: string): SpecCheck => ({
    id,
    group: "checkout",
    rule: "checkout.back-url",
    title: "follows what the target gave",
    run: async (ctx) => {
      const given = await ctx.http.send({
        method: "POST",
        url: `${TARGET}/v5/organizations/o/checkout-intents`,
      });
      const { redirectUrl } = JSON.parse(given.text) as { redirectUrl: string };
      await ctx.http.send({ method: "GET", url: redirectUrl === "use" ? url : redirectUrl });
      return { verdict: "pass", reason: "followed" };
    },
  });

  it("fails a check that was to follow a URL that is not one, naming the answer it came from", async () => {
    const { transport } = fakeTarget(() => ({ status: 200, body: '{"id":1,"redirectUrl":"string"}' }));
    const options = resolveOptions(input({ auth: { kind: "bearer", reader: "t", admin: undefined } }));
    const report = await runVerify(options, [follow("checkout/follow", "")], {
      contract: contract(),
      transport,
    });
    const [outcome] = report.outcomes;
    expect(outcome?.verdict).toBe("fail");
    expect(outcome?.reason).toMatch(
      /^the target gave "string" \(from the answer to POST http:\/\/mock\.test\/v5\/organizations\/o\/checkout-intents\) where a URL to follow was expected/,
    );
    expect(outcome?.evidence?.request).toMatchObject({
      method: "POST",
      url: `${TARGET}/v5/organizations/o/checkout-intents`,
    });
    expect(outcome?.evidence?.response?.excerpt).toContain('"redirectUrl":"string"');
  });

  it("fails a check whose request got no answer, with the request; a URL that works passes", async () => {
    const { transport } = fakeTarget((_method, url) => {
      if (url.hostname === "gone.test")
        throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      return { status: 200, body: '{"redirectUrl":"use"}' };
    });
    const options = resolveOptions(input({ auth: { kind: "bearer", reader: "t", admin: undefined } }));
    const checks = [
      follow("checkout/gone", "http://gone.test/pay"),
      follow("checkout/fine", `${TARGET}/pay`),
    ];
    const report = await runVerify(options, checks, { contract: contract(), transport });
    expect(report.outcomes.map((o) => o.verdict)).toEqual(["fail", "pass"]);
    expect(report.outcomes[0]?.reason).toMatch(
      /^GET http:\/\/gone\.test\/pay got no answer, so the check could not go on: ECONNREFUSED/,
    );
    expect(report.outcomes[0]?.evidence?.request).toEqual({ method: "GET", url: "http://gone.test/pay" });
  });
});

describe("the admin skips name the flags of the run's authentication", () => {
  const fileCheck = allChecks().filter((c) => c.id === "rights/file-needs-organization-admin");

  it("names --admin-bearer under --bearer, not the client flags it does not take", async () => {
    const { transport } = fakeTarget(() => ({ status: 200, body: "{}" }));
    const options = resolveOptions(input({ auth: { kind: "bearer", reader: "t", admin: undefined } }));
    const report = await runVerify(options, fileCheck, { contract: contract(), transport });
    expect(report.outcomes.map((o) => [o.verdict, o.reason])).toEqual([
      ["skip", "no organization_admin token was given (--admin-bearer)"],
    ]);
  });

  it("names the admin client flags with a token endpoint", async () => {
    const { transport } = fakeTarget(() => ({ status: 200, body: '{"access_token":"a","expires_in":1800}' }));
    const options = resolveOptions(input({ auth: { kind: "token-endpoint", ...CLIENTS, admin: undefined } }));
    const report = await runVerify(options, fileCheck, { contract: contract(), transport });
    expect(report.outcomes.map((o) => [o.verdict, o.reason])).toEqual([
      ["skip", "no organization_admin client was given (--admin-client-id, --admin-client-secret)"],
    ]);
  });
});

describe("the Pact step on a target without a token endpoint", () => {
  const interactions = pactFilesAt(`${contractsDir()}/pacts`, AT).flatMap((p) => p.interactions);

  it("leaves out the pact's token requests under --bearer and --no-auth, with the reason", () => {
    for (const auth of [
      { kind: "bearer", reader: "t", admin: undefined } as const,
      { kind: "none" } as const,
    ]) {
      const skipped = interactions.filter((i) => tokenEndpointSkip(auth, i) !== undefined);
      expect(skipped.length, auth.kind).toBeGreaterThan(0);
      expect(skipped.every((i) => i.request?.path === "/oauth2/token")).toBe(true);
    }
    const token = interactions.find((i) => i.request?.path === "/oauth2/token");
    expect(token && tokenEndpointSkip({ kind: "none" }, token)).toBe(
      "the target has no token endpoint: verify authenticates to it with --no-auth",
    );
  });

  it("sends every one of them to a target with a token endpoint", () => {
    const auth = { kind: "token-endpoint", ...CLIENTS, admin: undefined } as const;
    expect(interactions.filter((i) => tokenEndpointSkip(auth, i) !== undefined)).toEqual([]);
  });
});

describe("the target-shape flags", () => {
  const where = [
    "--target",
    "http://127.0.0.1:9",
    "--organization",
    "o",
    "--form-type",
    "Event",
    "--form-slug",
    "f",
  ];

  it("refuses two ways to authenticate at once, and --admin-bearer without --bearer", async () => {
    for (const flags of [
      ["--bearer", "t", "--client-id", "a", "--client-secret", "b"],
      ["--no-auth", "--bearer", "t"],
    ]) {
      const run = await runVerifyCli([...where, ...flags]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/are two ways to authenticate; give one/);
    }
    const alone = await runVerifyCli([...where, "--admin-bearer", "t"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--admin-bearer needs --bearer/);
  });

  it("takes --bearer or --no-auth without client credentials", async () => {
    // Nothing listens on port 9: past every flag, the run stops at its first request, exit 2.
    for (const flags of [["--bearer", "t", "--api-root", "/"], ["--no-auth"]]) {
      const run = await runVerifyCli([...where, ...flags, "--only", "versions"]);
      expect(run.code, flags.join(" ")).toBe(2);
      expect(run.stderr).toMatch(
        /the target does not answer: no answer from http:\/\/127\.0\.0\.1:9(\/v5)?: ECONNREFUSED/,
      );
    }
  });
});
