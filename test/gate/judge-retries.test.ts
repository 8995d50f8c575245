import { describe, expect, it } from "vitest";
import { empty, exited, full, ITEMS, judge, login, rulesOf } from "./judge-support.js";
import { moreOf, severityOf } from "./support.js";

const T = 1_700_000_000_000;
const t1 = `${ITEMS}?continuationToken=t1`;
const date = (ms: number) => new Date(ms).toUTCString();
const gaveUp = { ...exited, exitCode: 1, stderrTail: ["Error: GET items answered 429"] };

describe("the judge of retries accepts every legal behaviour", () => {
  it("retries with the same token once Retry-After has passed, in seconds or as an HTTP-date; a reset retried at once", () => {
    expect(
      judge([
        login,
        { url: ITEMS, page: full("t1"), at: T },
        { url: t1, status: 429, retryAfter: "1", at: T + 100 },
        { url: t1, page: full("t2"), at: T + 1100 },
        { url: `${ITEMS}?continuationToken=t2`, status: 429, retryAfter: date(T + 3000), at: T + 1200 },
        { url: `${ITEMS}?continuationToken=t2`, reset: true, at: T + 3000 },
        { url: `${ITEMS}?continuationToken=t2`, page: empty("t2"), at: T + 3001 },
      ]),
    ).toEqual([]);
  });

  it("a first call refused, retried without a token: the crawl had no token to resume with", () => {
    expect(
      judge([
        { url: ITEMS, status: 503 },
        { url: ITEMS, page: full("t1") },
        { url: t1, page: empty() },
      ]),
    ).toEqual([]);
  });

  it("giving up after a refusal and reporting it (exit 1): a warning, never run.command-succeeds; an error under --strict", () => {
    const calls = [
      { url: ITEMS, page: full("t1") },
      { url: t1, status: 429, retryAfter: "1" },
    ];
    const findings = judge(calls, "2026-01-10", gaveUp);
    expect(findings.map((f) => [f.rule, severityOf(f)])).toEqual([["retry.survives-refusal", "robustness"]]);
    expect(findings[0]?.reason).toBe(
      "(robustness, an error with --strict) gave up after the 429 at request #2 (Retry-After: 1) and exited with code 1: a failure of the call, which the seed allows",
    );
    expect(findings[0]?.evidence?.diagnostics?.join("\n")).toContain("  | Error: GET items answered 429");
    expect(judge(calls, "2026-01-10", gaveUp, true)[0]?.verdict).toBe("fail");
  });
});

describe("the judge of retries flags", () => {
  it("a retry sooner than Retry-After asked, in seconds and as an HTTP-date, with the gap", () => {
    const findings = judge([
      { url: ITEMS, page: full("t1"), at: T },
      { url: t1, status: 429, retryAfter: "1", at: T + 100 },
      { url: t1, status: 429, retryAfter: "1", at: T + 112 },
      { url: t1, page: empty(), at: T + 1200 },
    ]);
    expect(rulesOf(findings)).toEqual(["retry.waits-retry-after"]);
    expect(findings[0]?.reason).toBe(
      "retried 12 ms after the 429 at request #2 (Retry-After: 1), which asked to wait 1000 ms",
    );
    expect(findings[0]?.evidence?.request?.seq).toBe(3);
    expect(findings[0]?.evidence?.diagnostics?.[0]).toMatch(/ms too early$/);
    expect(findings[0]?.evidence?.diagnostics?.[0]).toContain("988 ms too early");

    const dated = judge([
      { url: ITEMS, page: full("t1"), at: T },
      { url: t1, status: 429, retryAfter: date(T + 2000), at: T + 100 },
      { url: t1, page: empty(), at: T + 600 },
    ]);
    expect(rulesOf(dated)).toEqual(["retry.waits-retry-after"]);
    expect(dated[0]?.reason).toContain("retried 500 ms after the 429 at request #2");
    expect(dated[0]?.reason).toContain("which asked to wait 1900 ms");
    expect(dated[0]?.evidence?.diagnostics?.[0]).toContain("1400 ms too early");
  });

  it("a crawl restarted from page 1 after a refusal, at the request where it restarted", () => {
    const findings = judge([
      { url: ITEMS, page: full("t1") },
      { url: t1, status: 503 },
      { url: ITEMS, page: full("t9") },
      { url: `${ITEMS}?continuationToken=t9`, page: empty() },
    ]);
    expect(rulesOf(findings)).toEqual(["retry.resumes-with-token"]);
    expect(findings[0]?.reason).toBe(
      "restarted the crawl from page 1 after the 503 at request #2, instead of retrying with the token the refused call carried",
    );
    expect(findings[0]?.evidence?.request?.seq).toBe(3);
    expect(findings[0]?.evidence?.diagnostics?.[0]).toBe(
      'the refused call carried continuationToken "t1": send it again',
    );
  });

  it("a crawl that ends at a refused call while the command exits 0: the rest of the listing is lost", () => {
    const findings = judge([
      { url: ITEMS, page: full("t1") },
      { url: t1, reset: true },
    ]);
    expect(rulesOf(findings)).toEqual(["retry.resumes-with-token"]);
    expect(findings[0]?.evidence?.request?.seq).toBe(2);
    expect(findings[0]?.evidence?.diagnostics).toEqual([
      "the connection reset at request #2 ended the crawl",
    ]);
  });

  it("retries without end, stopped by the gate: run.bounded says which call looped", () => {
    const loop = Array.from({ length: 8 }, (_, i) => ({
      url: t1,
      status: 429,
      retryAfter: "1",
      at: T + 10 * i,
    }));
    const findings = judge([{ url: ITEMS, page: full("t1"), at: T - 10 }, ...loop], "2026-01-10", {
      ...exited,
      exitCode: null,
      signal: "SIGTERM",
      stoppedBy: "request-budget",
    });
    expect(rulesOf(findings).sort()).toEqual(["retry.waits-retry-after", "run.bounded"]);
    const bounded = findings.find((f) => f.rule === "run.bounded");
    expect(bounded?.evidence?.diagnostics).toEqual([
      "its last 8 requests were the same call, refused each time since the 429 at request #2 (Retry-After: 1): retries need a bound",
    ]);
    expect(moreOf(findings.find((f) => f.rule === "retry.waits-retry-after"))).toBe(6);
  });
});
