import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import type { IsoDay } from "../../core/dates.js";
import type { GateReport } from "../../gate/run.js";
import type { NotifyReport } from "../../notify/run.js";
import type { RunReport } from "../../specs/runner/types.js";

/** A verify report holding every verdict: pass, fail (with evidence), skip, warn and error. */
export const verifyReport: RunReport = {
  target: "http://127.0.0.1:1234",
  embedded: false,
  at: "2025-06-15",
  planned: "warn",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1234,
  summary: { pass: 1, fail: 1, skip: 1, warn: 1, error: 1 },
  outcomes: [
    {
      id: "pagination/token-echoed",
      group: "pagination",
      rule: "pagination.token-echoed",
      title: "Tokens",
      verdict: "pass",
      reason: "12 listings",
      durationMs: 10,
    },
    {
      id: "counts/absent-after-removal",
      group: "counts",
      rule: "counts.absent-after-removal",
      title: "No counts <after> removal & co",
      verdict: "fail",
      reason: 'totalCount must be absent, got "1"',
      evidence: {
        request: {
          method: "GET",
          url: "http://127.0.0.1:1234/v5/x?withCount=true&a=b",
          headers: { authorization: "Bearer abcdef…" },
        },
        response: { status: 200, excerpt: '{"totalCount":45}' },
        diagnostics: ["response.pagination.totalCount must be absent, got integer 45"],
      },
      durationMs: 20,
    },
    {
      id: "versions/v3-switched-off",
      group: "versions",
      rule: "versions.v3-switched-off",
      title: "v3 off",
      verdict: "skip",
      reason: "not in force",
      durationMs: 0,
    },
    {
      id: "counts/real-with-withcount",
      group: "counts",
      rule: "counts.real-with-withcount",
      title: "real",
      verdict: "warn",
      reason: "totalCount is -1 (planned change)",
      downgraded: true,
      durationMs: 0,
    },
    {
      id: "rights/auth-tokens",
      group: "rights",
      rule: "auth.tokens",
      title: "tokens",
      verdict: "error",
      reason: "the check could not run: boom",
      durationMs: 0,
    },
  ],
};

const ended = {
  exitCode: 0,
  signal: null,
  stoppedBy: undefined,
  durationMs: 1500,
  startError: undefined,
  stderrTail: [],
};

/** A gate report: one clean scenario, one with a broken rule (request, details, more) and one piece of advice. */
export const gateReport: GateReport = {
  command: ["node", "crawl.mjs"],
  upstream: "sandbox",
  passed: false,
  scenarios: [
    {
      scenario: "uniform",
      summary: "one form, every page full",
      at: "2025-06-15" as IsoDay,
      passed: true,
      findings: [],
      requests: 7,
      crawls: 1,
      command: ended,
    },
    {
      scenario: "tricky-tokens",
      summary: "tokens with + / = and %",
      at: "2025-06-15" as IsoDay,
      passed: false,
      findings: [
        {
          id: "crawl.token-echoed",
          rule: "crawl.token-echoed",
          group: "tricky-tokens",
          verdict: "fail",
          reason: "sent back a token that differs from the one given",
          evidence: {
            request: {
              seq: 3,
              method: "GET",
              url: "/v5/organizations/o/forms/Event/f/items?continuationToken=%252B",
            },
            response: { status: 400 },
            diagnostics: [
              "given: +abc",
              "sent:  %2Babc",
              "likely: it was percent-encoded twice",
              "(2 more like it)",
            ],
          },
          fix: loadConsumerRules().byId("crawl.token-echoed").fix,
        },
        {
          id: "counts.withcount-when-needed",
          rule: "counts.withcount-when-needed",
          group: "tricky-tokens",
          verdict: "warn",
          reason: "(advice) asked withCount on every page",
          evidence: {},
        },
      ],
      requests: 9,
      crawls: 2,
      command: { ...ended, exitCode: 3 },
    },
  ],
};

/** A notify report: a passing case, a failing one, a note and a diagnosis. */
export const notifyReport: NotifyReport = {
  to: "http://127.0.0.1:3000/hook?a=1&b=2",
  passed: false,
  cases: [
    {
      id: "signed:Order",
      rule: "notify.accepts-signed",
      group: "notify.accepts-signed",
      verdict: "pass",
      reason: "answered 200",
    },
    {
      id: "raw:escaped",
      rule: "notify.verifies-raw-bytes",
      group: "notify.verifies-raw-bytes",
      verdict: "fail",
      reason: "answered 401: it verified a re-serialisation, not the raw bytes",
      fix: loadConsumerRules().byId("notify.verifies-raw-bytes").fix,
    },
    {
      id: "uppercase-hex",
      rule: "notify.signature-case",
      group: "notify.signature-case",
      verdict: "warn",
      reason: "answered 401: it compares the hex case-sensitively",
    },
  ],
  diagnosis: ["it verifies a re-serialisation of the body"],
};
