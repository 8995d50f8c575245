import { describe, expect, it } from "vitest";
import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import { loadContract } from "../../contracts/index.js";
import { redactSecretData } from "../../core/secrets/text.js";
import { judgeCase } from "../../notify/judge.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { crawlPicture } from "../../report/html/crawl.js";
import { anchorOf } from "../../report/html/escape.js";
import { matrixTable } from "../../report/html/matrix.js";
import {
  type EvidenceCrawl,
  escapeHtml,
  type Report,
  type ReportMatrix,
  writeReport,
} from "../../report/index.js";
import { verifyReport as verifyModel } from "../../specs/report/index.js";
import { notifyReport, verifyReport } from "./fixtures.js";

const contract = loadContract();

const CRAWL: EvidenceCrawl = {
  label: "pageSize 7",
  pageSize: 7,
  expected: "45 entries: page 7 should hold ids 43–45",
  actual: "page 7 was empty after 42 entries: 3 lost",
  pages: [
    {
      index: 1,
      url: "http://127.0.0.1:1/v5/x?pageSize=7",
      status: 200,
      entries: 7,
      firstId: 1,
      lastId: 7,
      tokenGiven: "A+/=",
    },
    {
      index: 2,
      url: "http://127.0.0.1:1/v5/x?pageSize=7&continuationToken=A%2B%2F%3D",
      status: 200,
      entries: 0,
      tokenSent: "A+/=",
      tokenGiven: "<b>B</b>",
      offending: true,
    },
  ],
};

const MATRIX: ReportMatrix = {
  basis: "behaviour-at-each-date",
  note: "A fresh sandbox per date.",
  dates: [
    { day: "2025-03-14", label: "day before withcount-default-false" },
    { day: "2025-03-15", label: "withcount-default-false" },
  ],
  rows: [
    {
      id: "counts/minus-one-without-withcount",
      rule: "counts.minus-one-without-withcount",
      cells: [
        { cell: "not-in-force", reason: "not yet in force" },
        { cell: "fail", reason: "totalCount is 45" },
      ],
    },
    {
      id: "unknown/row",
      rule: "not.a-rule",
      cells: [
        { cell: "pass", reason: "ok" },
        { cell: "pass", reason: "ok" },
      ],
    },
  ],
};

describe("HTML escaping", () => {
  it("turns markup characters into entities and drops characters HTML cannot carry", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title='y'&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml("a\u0000b\u0007c\uFFFEd\te\nf")).toBe("abcd\te\nf");
  });

  it("keeps legal text as it is", () => {
    const legal = "totalCount: -1 · ids 43–45 · €5 · 日本 · 🙂 · tab\there";
    expect(escapeHtml(legal)).toBe(legal);
  });

  it("gives two different names two different anchors", () => {
    expect(anchorOf("rule", "pagination.token-echoed")).toBe("rule-pagination.token-echoed");
    const names = ["a b", "a_20_b", "a-b", "a/b", "a_b"];
    expect(new Set(names.map((n) => anchorOf("rule", n))).size).toBe(names.length);
  });
});

describe("the crawl picture", () => {
  it("draws each page as a box with its entries and tokens, and marks the offending step in words", () => {
    const html = crawlPicture(CRAWL);
    expect(html.match(/<li/g)?.length).toBe(4); // two boxes, two requests
    expect(html).toContain('class="offending" aria-current="step" data-step="2"');
    expect(html).toContain("✘ offending step");
    expect(html).toContain("&lt;b&gt;B&lt;/b&gt;");
    expect(html).not.toContain("<b>B</b>");
    expect(html).toContain(escapeHtml(CRAWL.expected));
    expect(html).toContain(escapeHtml(CRAWL.actual));
    expect(html).toMatch(
      /aria-label="Crawl pageSize 7 at pageSize 7: 2 pages, 7 entries in all\. It went wrong at page 2\./,
    );
  });

  it("marks nothing in a crawl without an offending page", () => {
    const html = crawlPicture({ ...CRAWL, pages: CRAWL.pages.map((p) => ({ ...p, offending: false })) });
    expect(html).not.toContain("offending step");
    expect(html).not.toContain("data-offending-step");
  });
});

describe("the matrix table", () => {
  it("marks a failing date's header, says every cell in words and links known rules", () => {
    const html = matrixTable(MATRIX, new Set(["counts.minus-one-without-withcount"]));
    expect(html).toContain(
      '<th scope="col" class="failing" data-failing="true" data-day="2025-03-15">2025-03-15 ✘',
    );
    expect(html).not.toContain('data-failing="true" data-day="2025-03-14"');
    expect(html).toContain(">○ not yet in force</td>");
    expect(html).toContain(">✘ fail</td>");
    expect(html).toContain('<a href="#rule-counts.minus-one-without-withcount">');
    expect(html).toContain('<th scope="row">unknown/row</th>');
  });
});

describe("the HTML report", () => {
  const report: Report = verifyModel(verifyReport, contract.rules);
  const html = writeReport(report, "html", { color: false }, { outcomes: verifyReport.outcomes });

  it("is one self-contained document that loads nothing from anywhere", () => {
    expect(html.startsWith("<!DOCTYPE html>\n")).toBe(true);
    expect(html).toContain("default-src 'none'");
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/\s(src|srcset|poster|data)=/);
    expect(html).not.toMatch(/<link|@import|url\(/);
    for (const href of html.matchAll(/href="([^"]*)"/g)) expect(href[1]).toMatch(/^#/);
  });

  it("shows a failure's request, offending part and diagnostics, and links its rule to the seed section", () => {
    expect(html).toContain("GET http://127.0.0.1:1234/v5/x?withCount=true&amp;a=b");
    expect(html).toContain(escapeHtml('{"totalCount":45}'));
    expect(html).toContain("response.pagination.totalCount must be absent, got integer 45");
    expect(html).toContain('<a href="#rule-counts.absent-after-removal">');
    expect(html).toContain('<dt id="rule-counts.absent-after-removal">');
    expect(html).toContain("seed: <cite>Versioning 4 (planned)</cite>");
    expect(html).toContain("No counts &lt;after&gt; removal &amp; co");
  });

  it("keeps a provider's markup as text, never as markup", () => {
    const hostile: Report = {
      ...report,
      suites: [
        {
          name: "x",
          properties: {},
          notes: ["<img src=x onerror=alert(1)>"],
          cases: [
            { id: "c", rule: "r", group: "g", verdict: "fail", reason: "</pre><script>alert(1)</script>" },
          ],
        },
      ],
    };
    const text = writeReport(hostile, "html", { color: false });
    expect(text.match(/<script/g)).toHaveLength(1);
    expect(text).not.toContain("<img");
  });

  it("folds the whole JSON report, every piece of evidence included", () => {
    expect(html).toContain("<details><summary>Every piece of evidence");
    expect(html).toContain(escapeHtml('"excerpt": "{\\"totalCount\\":45}"'));
  });

  it("shows each notify case's request, signature and answer, and keeps them out of notify's own JSON cases", () => {
    const rules = loadConsumerRules();
    const delivery = {
      url: "http://127.0.0.1:3000/hook",
      body: Buffer.from('{"eventType":"Order","data":{"id":1}}'),
      signature: "ab12cd",
    };
    const signed = {
      id: "signed:Order",
      rule: "notify.accepts-signed",
      title: "a signed Order notification",
    };
    const judged = judgeCase(
      { ...signed, rule: "notify.accepts-signed", expect: "accept", deliveries: [delivery], reconcile: [] },
      [{ kind: "answered", status: 401, excerpt: "bad signature", durationMs: 4 }],
      undefined,
      rules,
    );
    const withSent = { ...notifyReport, cases: [judged, ...notifyReport.cases.slice(1)] };
    const page = formatNotifyReport(withSent, rules, "html");
    expect(page).toContain("x-ha-signature: ab12cd");
    expect(page).toContain(
      "delivery 1: x-ha-signature: ab12cd; body {&quot;eventType&quot;:&quot;Order&quot;",
    );
    expect(page).toContain("answered 401 bad signature");
    const json = JSON.parse(formatNotifyReport(withSent, rules, "json"));
    expect(json.cases[0]).not.toHaveProperty("sent");
    expect(json.suites[0].cases[0].evidence.request).toMatchObject({ method: "POST" });
    const without = formatNotifyReport(notifyReport, rules, "html");
    expect(without).not.toContain("delivery 1:");
  });
});

describe("a crawl's continuation tokens in a report", () => {
  it("are kept by the report redactor (they are the evidence), while a secret beside them is not", () => {
    const token = "MjAyNTA2MjVfMTkxNDMzMw+/=";
    const redacted = redactSecretData({
      crawl: {
        pages: [{ index: 2, tokenSent: token, tokenGiven: token, url: `/v5/x?continuationToken=${token}` }],
      },
      access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ",
    });
    expect(redacted.crawl.pages[0]).toMatchObject({ tokenSent: token, tokenGiven: token });
    expect(redacted.crawl.pages[0]?.url).toContain(token);
    expect(redacted.access_token).toMatch(/^<secret:/);
  });
});
