import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPage } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { startRecorder } from "../../proxy/index.js";
import { startSandbox } from "../../sandbox/index.js";
import { clientToken } from "../support/client-token.js";
import { editingPagination } from "./support/editing-provider.js";
import { contract } from "./support/harness.js";
import { lines, rerunAgainst } from "./support/rerun-session.js";

/**
 * `verify --cassette` judges the totals of the listings the count deprecation leaves alone as verify
 * does: a recorded crawl of an organization's forms, re-sent to a target whose forms listing gives
 * totals, must count as many forms. After the removal (2026-01-01) they are the only totals left.
 */
const AT = "2026-01-01" as IsoDay;
const FORMS = /^\/v5\/organizations\/[^/]+\/forms$/;

/** A provider whose forms listing's pagination `change` rewrites (a copy). */
const formsTotals = (change: Parameters<typeof editingPagination>[1]) => editingPagination(FORMS, change);

/** The rerun's lines on the totals rule. */
const onTotals = (found: readonly string[]) =>
  found.filter((line) => line.includes("[counts.real-with-withcount]"));

describe("verify --cassette judges the totals an organization's forms listing gives", () => {
  let dir: string;
  let cassette: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "assopay-rerun-totals-"));
    cassette = join(dir, "forms.yaml");
    const sandbox = await startSandbox({ port: 0, at: AT, entries: 5, contract: contract() });
    const recorder = await startRecorder({ upstream: sandbox.url, cassette, mode: "all" });
    try {
      // A crawl of the forms at pageSize 1: a page a form, then the empty page.
      const bearer = await clientToken(recorder.url, sandbox.credentials.reader);
      const path = `${recorder.url}/v5/organizations/${sandbox.credentials.organizationSlug}/forms`;
      let token: string | undefined;
      for (let page = 0; page < 10; page++) {
        const query = new URLSearchParams({ pageSize: "1", ...(token ? { continuationToken: token } : {}) });
        const response = await fetch(`${path}?${query}`, { headers: { authorization: `Bearer ${bearer}` } });
        const read = readPage(await response.json(), "data");
        if (!read.ok || read.entries.length === 0) break;
        token = read.token;
      }
    } finally {
      await recorder.close();
      await sandbox.close();
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("flags a target whose forms listing gives one form more than it serves", async () => {
    const report = await rerunAgainst([cassette], AT, {
      through: formsTotals((p) => ({ ...p, totalCount: Number(p.totalCount) + 1 })),
    });
    const found = onTotals(lines(report)).filter((line) => line.startsWith("fail"));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/declared totalCount (\d+) and totalPages \d+; the crawl counted (\d+) entries/);
  });

  it("passes the sandbox's totals, and a target that gives none (-1)", async () => {
    for (const through of [undefined, formsTotals((p) => ({ ...p, totalCount: -1, totalPages: -1 }))]) {
      const report = await rerunAgainst([cassette], AT, through ? { through } : {});
      expect(onTotals(lines(report)).filter((line) => line.startsWith("fail"))).toEqual([]);
    }
  });
});
