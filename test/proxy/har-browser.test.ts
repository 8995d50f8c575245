import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCassette } from "../../proxy/cassette/reader.js";
import type { Har } from "../../proxy/har/format.js";
import { startRecorder } from "../../proxy/record/server.js";
import type { FaultName } from "../../sandbox/faults.js";
import { type SandboxCredentials, startSandbox } from "../../sandbox/index.js";
import { lintReport, runLint } from "../../specs/lint/run.js";
import { contract } from "../sandbox/helpers.js";
import { launchChromium } from "../support/chromium.js";
import { runCli } from "../support/run-cli.js";
import { tempDir } from "./support/http.js";

/**
 * What a page's own code does against the service, in the browser: a token (client_credentials), a
 * whole crawl of the form's items at page size 5, a page of the organization's orders, the public form.
 */
async function pageSession(c: SandboxCredentials): Promise<number> {
  const form = `/v5/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}`;
  const token = await fetch("/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: c.admin.clientId,
      client_secret: c.admin.clientSecret,
    }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${access_token}` };
  let next = `${form}/items?pageSize=5`;
  let pages = 0;
  for (; pages < 10; pages++) {
    const body = (await (await fetch(next, { headers })).json()) as {
      data: unknown[];
      pagination: { continuationToken?: string };
    };
    if (body.data.length === 0 || !body.pagination.continuationToken) break;
    next = `${form}/items?pageSize=5&continuationToken=${encodeURIComponent(body.pagination.continuationToken)}`;
  }
  await (await fetch(`/v5/organizations/${c.organizationSlug}/orders?pageSize=4`, { headers })).text();
  await (await fetch(`${form}/public`, { headers })).text();
  return pages;
}

/** Each interaction's verdicts by request (file and ids aside; the browser's favicon, see below, aside). */
async function verdicts(file: string): Promise<string[]> {
  const report = lintReport(await runLint(contract(), [file], undefined));
  return report.suites
    .flatMap((suite) => suite.cases)
    .map((c) => `${c.id.replace(/^.*#\d+ /, "")} ${c.rule} ${c.verdict}`)
    .filter((v) => !v.startsWith("GET /favicon.ico "))
    .sort();
}

describe("a HAR that chromium saved of a session against the sandbox, imported", () => {
  let browser: Browser;
  let temp: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    browser = await launchChromium();
    temp = await tempDir();
  });
  afterAll(async () => {
    await browser?.close();
    await temp?.remove();
  });

  /**
   * One session, seen twice: the page calls the service through the recorder (its cassette) while
   * chromium records the same requests as HAR (playwright's `recordHar`: the browser's own network
   * events, the way devtools' "Save all as HAR" gets them).
   */
  async function session(name: string, fault: FaultName | undefined) {
    const sandbox = await startSandbox({
      port: 0,
      entries: 12,
      contract: contract(),
      ...(fault ? { fault } : {}),
    });
    const recorded = temp.file(`${name}-proxy.yaml`);
    const harFile = temp.file(`${name}.har`);
    const recorder = await startRecorder({ upstream: sandbox.url, cassette: recorded });
    const context = await browser.newContext({ recordHar: { path: harFile, content: "embed" } });
    try {
      const page = await context.newPage();
      await page.goto(`${recorder.url}/_site/cart`);
      const pages = await page.evaluate(pageSession, sandbox.credentials);
      expect(pages).toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
      await recorder.close();
      await sandbox.close();
    }
    const imported = temp.file(`${name}-har.yaml`);
    const cli = await runCli(["har", "import", harFile, "--cassette", imported]);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    return { recorded, harFile, imported, recorderUrl: recorder.url, stdout: cli.stdout };
  }

  it("holds what the proxy recorded, redacted alike, and passes lint with the same verdicts", async () => {
    const { recorded, harFile, imported, recorderUrl, stdout } = await session("clean", undefined);
    const har = JSON.parse(await readFile(harFile, "utf8")) as Har;
    expect(har.log.creator.name).toBe("Playwright");
    expect(stdout).toContain(`the service being ${recorderUrl}`);
    const [proxy, fromHar] = [await loadCassette(recorded), await loadCassette(imported)];
    const requests = (c: typeof proxy) => c.interactions.map((i) => `${i.request.method} ${i.request.path}`);
    // Chromium fetches /favicon.ico on its own: the proxy recorded it (Sec-Fetch-Dest: image), the HAR
    // that playwright saved has no entry for it, and an import leaves such requests out by that header.
    const own = proxy.interactions.filter((i) => i.request.headers["sec-fetch-dest"] === "image");
    for (const i of own) expect(i.request.path).toBe("/favicon.ico");
    expect(requests(fromHar)).toEqual(requests(proxy).filter((r) => r !== "GET /favicon.ico"));
    const token = (c: typeof proxy) => c.interactions.find((i) => i.request.path === "/oauth2/token");
    expect(token(fromHar)?.request.body).toEqual(token(proxy)?.request.body);
    expect(token(fromHar)?.response.body).toMatchObject({
      json: { access_token: expect.stringMatching(/^<secret:/) },
    });
    const lint = await verdicts(imported);
    expect(lint.filter((v) => v.endsWith(" fail"))).toEqual([]);
    expect(lint.filter((v) => v.includes(" pagination.") || v.includes(" v5."))).not.toEqual([]);
    expect(lint).toEqual(await verdicts(recorded));
    expect((await runCli(["lint", imported])).code).toBe(0);
    // Re-sent by verify --cassette (to the embedded sandbox): the same verdicts as the proxy's recording.
    // (The favicon, re-sent too, is one more case that passes.)
    const rerun = async (file: string) => {
      const result = await runCli(["verify", "--cassette", file, "--reporter", "json"]);
      return {
        code: result.code,
        summary: (JSON.parse(result.stdout) as { summary: { pass: number } }).summary,
      };
    };
    const proxyRerun = await rerun(recorded);
    expect(await rerun(imported)).toEqual({
      ...proxyRerun,
      summary: { ...proxyRerun.summary, pass: proxyRerun.summary.pass - own.length },
    });
  });

  it("fails lint where the proxy's recording fails it, on the same rule", async () => {
    const { recorded, imported } = await session("duplicates", "duplicate-entries");
    const lint = await verdicts(imported);
    expect(lint.filter((v) => v.endsWith(" fail")).join("\n")).toContain("pagination.no-duplicates fail");
    expect(lint).toEqual(await verdicts(recorded));
  });
});
