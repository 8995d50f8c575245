import { describe, expect, it } from "vitest";
import { type Route, refusalRule } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { type Exchange, emptyJudgement } from "../../specs/rerun/finding.js";
import { judgeStatus } from "../../specs/rerun/status.js";
import type { RerunStep } from "../../specs/rerun/steps.js";
import { stopRule } from "../../specs/runner/crawler.js";
import { contract } from "../specs/support/harness.js";

const c = contract();
const BEFORE_SWITCH_OFF = "2025-04-01" as IsoDay;

/** The rule the rerun blames when `route` was served in the recording and refused (404) by the target. */
function rerunBlames(route: Route, continuation: boolean): string | undefined {
  const query: Record<string, string> = continuation ? { continuationToken: "abc" } : {};
  const step = {
    index: 0,
    id: `cassette/a.yaml#1 GET ${route.path}`,
    interaction: { request: { method: "GET", path: route.path, query }, response: { status: 200 } },
    match: { route, params: {} },
  } as unknown as RerunStep;
  const exchange: Exchange = {
    step,
    route,
    rules: c.timeline.datedRulesAt(route, BEFORE_SWITCH_OFF),
    recorded: { status: 200, body: undefined },
    target: {
      request: { method: "GET", url: route.path },
      status: 404,
      headers: new Headers(),
      bytes: Buffer.alloc(0),
      text: "",
      sentAt: 0,
      answeredAt: 1,
    },
    targetBody: undefined,
    query: new URLSearchParams(query),
    sameResource: true,
  };
  const judgement = emptyJudgement(step, "fail", c.timeline);
  judgeStatus(exchange, judgement, c.timeline.entries);
  return judgement.breaches[0]?.rule;
}

describe("the status judge: which rule a refusal breaks where an answer was due", () => {
  it("blames a route's refusal on the rule of its own check, a continuation page's on the token's", () => {
    const blamed = (id: string, continuation = false) => refusalRule(c.routes.byId(id), continuation);
    expect(blamed("v5.form-items")).toBe("versions.v5-unaffected");
    expect(blamed("v5.form-items", true)).toBe("pagination.token-echoed");
    expect(blamed("v3.form-items")).toBe("versions.v3-served-before-switch-off");
    expect(blamed("v3.form-items", true)).toBe("pagination.token-echoed");
    expect(blamed("token")).toBe("auth.tokens");
    expect(blamed("v5.order-detail")).toBe("rights.order-detail-exposes-files");
    expect(blamed("v5.attached-file")).toBe("rights.file-needs-organization-admin");
    expect(blamed("v5.public-form")).toBe("public-form.custom-fields-and-options");
    expect(blamed("v5.organization")).toBe("versions.v5-unaffected");
  });

  it("names only provider rules of rules.yaml, for every route", () => {
    const ids = new Set(c.rules.map((r) => r.id));
    for (const route of c.routes.all) {
      for (const continuation of [false, true]) {
        expect(ids.has(refusalRule(route, continuation)), `${route.id} ${continuation}`).toBe(true);
      }
    }
  });

  it("is asked by verify's crawler and by the rerun, which blame every listing's refusal alike", () => {
    const evidence = { request: { method: "GET", url: "/" } };
    for (const route of c.routes.listings()) {
      for (const kind of ["first-page-refused", "token-refused"] as const) {
        const continuation = kind === "token-refused";
        const crawler = stopRule({ kind, evidence }, route);
        expect(crawler, `${route.id} ${kind}`).toBe(refusalRule(route, continuation));
        expect(rerunBlames(route, continuation), `${route.id} ${kind}`).toBe(crawler);
      }
    }
  });
});
