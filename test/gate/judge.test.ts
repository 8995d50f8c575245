import { describe, expect, it } from "vitest";
import { type Call, empty, exited, full, ITEMS, judge, login, ORDERS, rulesOf } from "./judge-support.js";
import { moreOf, severityOf } from "./support.js";

describe("the judge accepts every legal behaviour", () => {
  it("a token with spaces and '+' encoded as %2B, spaces as '+' or %20, the parameter name in any case", () => {
    const token = "a+b c/=&%";
    expect(
      judge([
        login,
        { url: ITEMS, page: full(token) },
        { url: `${ITEMS}?continuationtoken=a%2Bb+c%2F%3D%26%25`, page: full("second token") },
        { url: `${ITEMS}?pageSize=20&ContinuationToken=second%20token`, page: empty("second token") },
      ]),
    ).toEqual([]);
  });

  it("stopping on a non-empty page without a token (seed rule 7), and a final page without a token", () => {
    expect(
      judge([
        { url: ITEMS, page: full("t1") },
        { url: `${ITEMS}?continuationToken=t1`, page: { entries: 5 } },
        { url: ORDERS, page: full("o1") },
        { url: `${ORDERS}?continuationToken=o1`, page: empty() },
      ]),
    ).toEqual([]);
  });

  it("two crawls of one listing interleaved, each sending back its own tokens", () => {
    expect(
      judge([
        { url: ITEMS, page: full("a1") },
        { url: ITEMS, page: full("b1") },
        { url: `${ITEMS}?continuationToken=b1`, page: full("b2") },
        { url: `${ITEMS}?continuationToken=a1`, page: full("a2") },
        { url: `${ITEMS}?continuationToken=a2`, page: empty("a2") },
        { url: `${ITEMS}?continuationToken=b2`, page: empty("b2") },
      ]),
    ).toEqual([]);
  });

  it("'Bearer undefined' first, then a login; one retry with a refused token, then a fresh one", () => {
    expect(
      judge([
        { url: ITEMS, status: 401, authorization: "Bearer undefined" },
        login,
        { url: ITEMS, page: full("t1") },
        { url: `${ITEMS}?continuationToken=t1`, status: 401 },
        { url: `${ITEMS}?continuationToken=t1`, status: 401 },
        login,
        { url: `${ITEMS}?continuationToken=t1`, authorization: "Bearer fresh", page: empty("t1") },
      ]),
    ).toEqual([]);
  });

  it("a crawl restarted from the first page after a 401", () => {
    expect(
      judge([
        { url: ITEMS, page: full("t1") },
        { url: `${ITEMS}?continuationToken=t1`, status: 401 },
        login,
        { url: ITEMS, authorization: "Bearer fresh", page: full("t2") },
        { url: `${ITEMS}?continuationToken=t2`, authorization: "Bearer fresh", page: empty() },
      ]),
    ).toEqual([]);
  });

  it("withCount=true at every date: advice at most, never an error", () => {
    for (const at of ["2024-12-20", "2025-04-01", "2025-06-01", "2026-01-10"]) {
      const findings = judge(
        [
          { url: `${ITEMS}?withCount=true`, page: full("t1") },
          { url: `${ITEMS}?continuationToken=t1&withCount=true`, page: empty("t1") },
        ],
        at,
      );
      expect(
        findings.filter((f) => f.verdict === "fail"),
        at,
      ).toEqual([]);
    }
    const after = judge([{ url: `${ITEMS}?withCount=true`, page: empty() }], "2026-01-10");
    expect(after.map((f) => [f.rule, severityOf(f)])).toEqual([
      ["counts.no-withcount-after-removal", "advice"],
    ]);
    expect(after[0]?.reason).toContain("no effect");
  });

  it("a token parameter left out of the first call, whatever its neighbours", () => {
    expect(
      judge([
        { url: `${ITEMS}?pageSize=20`, page: full("t1") },
        { url: `${ITEMS}?pageSize=20&continuationToken=t1`, page: empty() },
      ]),
    ).toEqual([]);
  });

  it("withCount=true on the first page only, while counts exist", () => {
    expect(
      judge(
        [
          { url: `${ITEMS}?withCount=true`, page: full("t1") },
          { url: `${ITEMS}?continuationToken=t1`, page: empty("t1") },
        ],
        "2025-04-01",
      ),
    ).toEqual([]);
  });
});

describe("the judge flags every broken rule, with the offending request", () => {
  it("a '+' sent unencoded, read as a space", () => {
    const findings = judge([
      { url: ITEMS, page: full("ab+cd==") },
      { url: `${ITEMS}?continuationToken=ab+cd==`, status: 400 },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.token-echoed"]);
    expect(findings[0]?.evidence).toMatchObject({
      request: { seq: 2, url: `${ITEMS}?continuationToken=ab+cd==` },
      response: { status: 400 },
    });
    expect(findings[0]?.evidence?.diagnostics?.join("\n")).toContain("without percent-encoding");
  });

  it("a token pasted raw, cut short by its '&'", () => {
    const findings = judge([
      { url: ITEMS, page: full("ab&cd") },
      { url: `${ITEMS}?continuationToken=ab&cd`, status: 400 },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.token-echoed"]);
    expect(findings[0]?.evidence?.diagnostics?.join("\n")).toContain("without percent-encoding");
  });

  it("an older token of the same crawl", () => {
    const findings = judge([
      { url: ITEMS, page: full("t1") },
      { url: `${ITEMS}?continuationToken=t1`, page: full("t2") },
      { url: `${ITEMS}?continuationToken=t1`, page: full("t3") },
      { url: `${ITEMS}?continuationToken=t3`, page: empty("t3") },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.token-echoed"]);
    expect(findings[0]?.reason).toContain("another token");
  });

  it("a crawl that starts with a token of another listing, and one with a token never issued", () => {
    const findings = judge([
      { url: ORDERS, page: full("o1") },
      { url: `${ORDERS}?continuationToken=o1`, page: empty() },
      { url: `${ITEMS}?continuationToken=o1`, status: 400 },
      { url: "/v5/organizations/asso/payments?continuationToken=20180215135600_1914333", status: 400 },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.first-call-without-token", "crawl.no-invented-token"]);
    expect(findings[1]?.evidence?.request?.seq).toBe(4);
  });

  it.each([
    ["continuationToken=", "continuationToken="],
    ["pageSize=20&ContinuationToken=", "ContinuationToken="],
    ["continuationToken", "continuationToken"],
  ])("a first call that sends an empty token (%s), even when the server serves page 1", (query, shown) => {
    const findings = judge([
      { url: `${ITEMS}?${query}`, page: full("t1") },
      { url: `${ITEMS}?continuationToken=t1`, page: empty() },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.first-call-without-token"]);
    expect(findings[0]).toMatchObject({ verdict: "fail", evidence: { request: { seq: 1 } } });
    expect(findings[0]?.reason).toContain(`empty continuationToken (${shown})`);
  });

  it("a call after the empty page, counted once with the number of repeats", () => {
    const findings = judge([
      { url: ITEMS, page: full("t1") },
      { url: `${ITEMS}?continuationToken=t1`, page: empty("t1") },
      { url: `${ITEMS}?continuationToken=t1`, page: empty("t1") },
      { url: `${ITEMS}?continuationToken=t1`, page: empty("t1") },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.no-call-after-empty-page"]);
    expect(findings[0]).toMatchObject({ evidence: { request: { seq: 3 } } });
    expect(moreOf(findings[0])).toBe(1);
  });

  it("a stop at totalPages while real counts said so; giving up after a 401, renewed or not", () => {
    const findings = judge([
      { url: ITEMS, page: { entries: 20, token: "t1", pageIndex: 1, totalPages: 1 } },
      { url: ORDERS, page: full("o1") },
      { url: `${ORDERS}?continuationToken=o1`, status: 401 },
    ]);
    expect(rulesOf(findings)).toEqual(["crawl.reaches-empty-page", "auth.fresh-token-after-401"]);
    expect(findings[0]?.evidence?.diagnostics?.join("\n")).toContain("totalPages");
    const renewed = judge([
      { url: ORDERS, page: full("o1") },
      { url: `${ORDERS}?continuationToken=o1`, status: 401 },
      login,
    ]);
    expect(rulesOf(renewed)).toEqual(["crawl.reaches-empty-page"]);
    expect(renewed[0]?.reason).toContain("never resumed");
  });

  it("robustness advice is a warning, and an error under --strict; seed rules are errors either way", () => {
    const calls: Call[] = [
      { url: ITEMS, page: { entries: 20, token: "t1", pageIndex: 1, totalPages: 1 } },
      { url: ORDERS, page: full("o1") },
      { url: `${ORDERS}?continuationToken=o1`, status: 401 },
    ];
    const severities = (strict: boolean) =>
      judge(calls, "2026-01-10", exited, strict).map((f) => [f.rule, severityOf(f)]);
    expect(severities(false)).toEqual([
      ["crawl.reaches-empty-page", "error"],
      ["auth.fresh-token-after-401", "robustness"],
    ]);
    expect(severities(true)).toEqual([
      ["crawl.reaches-empty-page", "error"],
      ["auth.fresh-token-after-401", "error"],
    ]);
    const advice = judge([{ url: `${ITEMS}?withCount=true`, page: empty() }], "2026-01-10", exited, true);
    expect(advice.map(severityOf)).toEqual(["advice"]);
  });

  it("re-authenticating in a loop", () => {
    const findings = judge([
      login,
      { url: ITEMS, status: 401 },
      login,
      { url: ITEMS, status: 401 },
      login,
      login,
    ]);
    expect(rulesOf(findings)).toContain("auth.fresh-token-after-401");
    expect(findings.find((f) => f.reason.includes("in a row"))?.evidence?.request?.seq).toBe(6);
  });

  it("no listing call at all, and a command that exits non-zero", () => {
    const findings = judge([login], "2026-01-10", { ...exited, exitCode: 3 });
    expect(rulesOf(findings).sort()).toEqual(["run.command-succeeds", "run.traffic-seen"]);
  });

  it("a crash leads the verdict, with its exit code and the last lines of its stderr", () => {
    const findings = judge(
      [
        { url: ITEMS, page: full("t1") },
        { url: `${ITEMS}?continuationToken=t1`, page: full("t2") },
      ],
      "2026-01-10",
      {
        ...exited,
        exitCode: 1,
        stderrTail: [
          "TypeError: Cannot read properties of undefined (reading 'date')",
          "    at crawl (sdk.js:12:30)",
        ],
      },
    );
    expect(rulesOf(findings)).toEqual(["run.command-succeeds", "crawl.reaches-empty-page"]);
    expect(findings[0]?.reason).toBe("the command crashed: it exited with code 1");
    expect(findings[0]?.evidence?.diagnostics?.join("\n")).toContain(
      "  | TypeError: Cannot read properties of undefined (reading 'date')",
    );
    const signalled = judge([{ url: ITEMS, page: empty() }], "2026-01-10", {
      ...exited,
      exitCode: null,
      signal: "SIGSEGV",
    });
    expect(signalled[0]?.reason).toBe("the command crashed: ended by signal SIGSEGV");
    expect(signalled[0]?.evidence?.diagnostics?.[0]).toBe("it wrote nothing to stderr");
  });

  it("nothing is called stopped early when the gate stopped the command", () => {
    const findings = judge([{ url: ITEMS, page: full("t1") }], "2026-01-10", {
      ...exited,
      exitCode: null,
      signal: "SIGTERM",
      stoppedBy: "time-limit",
    });
    expect(rulesOf(findings)).toEqual(["run.bounded"]);
  });
});
