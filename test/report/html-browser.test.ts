import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import type { TimelineDate } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { packageRoot } from "../../core/paths.js";
import { gateTimelineReport } from "../../gate/report/format.js";
import { runGateAcrossDates } from "../../gate/run.js";
import { writeReport } from "../../report/index.js";
import { type DatedRun, verifyTimelineReport } from "../../specs/report/timeline.js";
import { contract, verifySandbox } from "../specs/support/harness.js";
import { launchChromium, requireChromium } from "../support/chromium.js";

/** The test's output: the reports and their screenshots (git ignores .scratch/). */
const OUT = join(packageRoot(), ".scratch", "test-output", "report-html");
/** With ASSOPAY_UPDATE_DOCS=1 the screenshots also replace the ones docs/report.md shows. */
const DOCS = process.env.ASSOPAY_UPDATE_DOCS === "1" ? join(packageRoot(), "docs", "images") : undefined;

const dates = (...days: [string, string][]) => days.map(([day, label]) => ({ day, label })) as TimelineDate[];

/** A verify across two dates of a provider that loses entries at a page boundary (a fresh sandbox per date). */
async function failingVerifyHtml(): Promise<string> {
  const only = ["pagination/complete", "pagination/empty-page-only-at-end", "versions/v3-switched-off"];
  const runs: DatedRun[] = [];
  for (const date of dates(["2025-04-01", "given"], ["2025-06-30", "v3-switch-off"])) {
    const run = await verifySandbox(date.day as IsoDay, {
      fault: "drop-at-boundary",
      hooks: false,
      extra: { stateUrl: undefined, only },
    });
    runs.push({ date, run });
  }
  const how = { basis: "behaviour-at-each-date", note: "A fresh sandbox per date." } as const;
  return writeReport(
    verifyTimelineReport(runs, how, contract()),
    "html",
    { color: false },
    { runs: runs.map((r) => r.run) },
  );
}

/** A gate across the v3 switch-off of a client that keeps calling v3. */
async function failingGateHtml(): Promise<string> {
  const rules = loadConsumerRules();
  const timeline = await runGateAcrossDates(
    {
      command: [
        process.execPath,
        join(packageRoot(), "test", "gate", "fixtures", "clients", "v3-forever.mjs"),
      ],
      scenarios: ["uniform"],
      entries: 45,
      maxRequests: 60,
      timeoutSeconds: 600,
      contract: contract(),
      rules,
    },
    dates(["2025-06-29", "day before v3-switch-off"], ["2025-06-30", "v3-switch-off"]),
  );
  return writeReport(gateTimelineReport(timeline, rules, contract().timeline), "html", { color: false });
}

describe("the HTML report in a real browser", () => {
  let browser: Browser;

  /** Opens a report file with every other request refused and recorded, and console errors kept. */
  async function open(name: string, html: string, javaScript = true) {
    const file = join(OUT, name);
    writeFileSync(file, html);
    const url = pathToFileURL(file).href;
    const context = await browser.newContext({
      javaScriptEnabled: javaScript,
      viewport: { width: 1100, height: 760 },
    });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (request) => {
      if (request.url() !== url) requests.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(String(error)));
    await context.route("**/*", (route) =>
      route.request().url() === url ? route.continue() : route.abort("blockedbyclient"),
    );
    await page.goto(url);
    await page.waitForLoadState("load");
    return { page, requests, errors, close: () => context.close() };
  }

  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  beforeAll(async () => {
    requireChromium();
    mkdirSync(OUT, { recursive: true });
    if (DOCS) mkdirSync(DOCS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("draws a verify that loses entries: the crawl's offending step, the failing dates, no request, no error", async () => {
    const html = await failingVerifyHtml();
    const { page, requests, errors, close } = await open("verify.html", html);
    try {
      const offending = page.locator("#failures .crawl li.offending").first();
      await expect(offending.textContent()).resolves.toContain("offending step");
      await expect(offending.isVisible()).resolves.toBe(true);
      const crawl = page.locator("#failures .crawl").first();
      await expect(crawl.locator(".expected").textContent()).resolves.toMatch(/\S/);
      await expect(crawl.locator(".actual").textContent()).resolves.toMatch(/\S/);
      await expect(crawl.getAttribute("aria-label")).resolves.toMatch(/It went wrong at page \d+/);
      const failing = await page
        .locator('table.matrix th[data-failing="true"]')
        .evaluateAll((ths) => ths.map((th) => th.getAttribute("data-day")));
      expect(failing).toEqual(["2025-04-01", "2025-06-30"]);
      await expect(texts(page, 'table.matrix tr[data-row="versions/v3-switched-off"] td')).resolves.toEqual([
        "○ not yet in force",
        "✔ pass",
      ]);
      await expect(texts(page, "h2")).resolves.toEqual(
        expect.arrayContaining(["Across the timeline", "Every case", "The JSON report"]),
      );
      await page.screenshot({ path: join(OUT, "verify-top.png") });
      await page
        .locator("#failures article.case")
        .first()
        .screenshot({ path: join(OUT, "verify-case.png") });
      await crawl.screenshot({ path: join(OUT, "verify-crawl.png") });
      if (DOCS) copyFileSync(join(OUT, "verify-crawl.png"), join(DOCS, "report-verify-crawl.png"));
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
    const off = await open("verify.html", html, false);
    try {
      await expect(off.page.locator("#failures .crawl li.offending").first().isVisible()).resolves.toBe(true);
      expect(off.requests).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it("draws a failing gate run: the failing date in the matrix, the request a failure points at", async () => {
    const { page, requests, errors, close } = await open("gate.html", await failingGateHtml());
    try {
      const failing = await page
        .locator('table.matrix th[data-failing="true"]')
        .evaluateAll((ths) => ths.map((th) => th.getAttribute("data-day")));
      expect(failing).toEqual(["2025-06-30"]);
      await expect(
        page
          .locator('table.matrix tr[data-row="versions.no-v3-after-switch-off"] td')
          .evaluateAll((tds) => tds.map((td) => td.getAttribute("data-cell"))),
      ).resolves.toEqual(["warn", "fail"]);
      await expect(page.locator(".traffic li.at-fault").count()).resolves.toBeGreaterThan(0);
      await expect(
        page.locator('a[href="#rule-versions.no-v3-after-switch-off"]').count(),
      ).resolves.toBeGreaterThan(0);
      await expect(page.locator("#rule-versions\\.no-v3-after-switch-off").count()).resolves.toBe(1);
      await page
        .locator("header, #matrix")
        .first()
        .screenshot({ path: join(OUT, "gate-header.png") });
      await page.locator("#matrix").screenshot({ path: join(OUT, "gate-matrix.png") });
      if (DOCS) copyFileSync(join(OUT, "gate-matrix.png"), join(DOCS, "report-gate-matrix.png"));
      // Keyboard: the first Tab reaches the link that skips to the failures.
      await page.keyboard.press("Tab");
      await expect(page.locator(":focus").textContent()).resolves.toBe("Skip to the failures");
      // Printing unfolds every folded section (the one script, an enhancement).
      await expect(page.locator("details:not([open])").count()).resolves.toBeGreaterThan(0);
      await page.pdf({ path: join(OUT, "gate.pdf") });
      await expect(page.locator("details:not([open])").count()).resolves.toBe(0);
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
