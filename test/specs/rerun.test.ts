import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import type { RunningSandbox } from "../../sandbox/index.js";
import type { RunReport } from "../../specs/runner/types.js";
import { clientToken } from "../support/client-token.js";
import { ALL_LEGAL_VARIANTS } from "./support/coverage-plan.js";
import { contract } from "./support/harness.js";
import { lines, recordSession, rerunAgainst } from "./support/rerun-session.js";
import { startTransformingProxy } from "./support/transforming-proxy.js";

const RECORDED_AT = "2025-04-01" as IsoDay;

/** A checkout intent made on the target first, so its next intent id is not the recorded one. */
async function anIntentFirst(sandbox: RunningSandbox): Promise<void> {
  const { credentials: c } = sandbox;
  const token = await clientToken(sandbox.url, c.reader);
  await fetch(`${sandbox.url}/v5/organizations/${c.organizationSlug}/checkout-intents`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      totalAmount: 500,
      initialAmount: 500,
      itemName: "Avant",
      backUrl: "https://asso.example/back",
      errorUrl: "https://asso.example/error",
      returnUrl: "https://asso.example/ok",
      containsDonation: false,
    }),
  });
}

const failures = (report: RunReport) =>
  report.outcomes.filter((o) => o.verdict === "fail" || o.verdict === "error");
const outcome = (report: RunReport, pattern: RegExp) => report.outcomes.find((o) => pattern.test(o.id));

describe("verify --cassette: a session recorded from the sandbox", () => {
  let session: Awaited<ReturnType<typeof recordSession>>;

  beforeAll(async () => {
    session = await recordSession(RECORDED_AT);
  });
  afterAll(async () => {
    await session.remove();
  });

  it("re-sends clean against a fresh sandbox with other tokens, secrets, file ids and intent ids", async () => {
    const report = await rerunAgainst([session.cassette], RECORDED_AT, { seed: 2, prepare: anIntentFirst });
    expect(failures(report).map((o) => `${o.id}: ${o.reason}`)).toEqual([]);
    expect(report.outcomes.filter((o) => o.verdict === "skip")).toEqual([]);
    const all = lines(report);
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(all.every((line) => line.startsWith("pass cassette/session.yaml#"))).toBe(true);
    // ids the target returned replace the recorded ones: the intent made first moved the id on by one
    const read = outcome(report, /checkout-intents\/\d+$/);
    const recordedId = Number(/checkout-intents\/(\d+)$/.exec(read?.id ?? "")?.[1]);
    expect(read?.evidence?.request?.url).toMatch(new RegExp(`/checkout-intents/${recordedId + 1}$`));
    // the file id comes from the target's own order detail (another seed, another file id)
    const file = report.outcomes.find((o) => /\/files\/\d+$/.test(o.id) && o.evidence?.request?.headers);
    const recordedFile = /\/files\/(\d+)$/.exec(file?.id ?? "")?.[1];
    expect(file?.evidence?.request?.url).toMatch(/\/files\/\d+$/);
    expect(file?.evidence?.request?.url.endsWith(`/files/${recordedFile}`)).toBe(false);
    // continuation tokens are the target's own: a recorded one would be refused by a sandbox of another seed
    const pages = report.outcomes.filter((o) => /continuationToken=/.test(o.evidence?.request?.url ?? ""));
    expect(pages.length).toBeGreaterThanOrEqual(6);
  });

  it("passes the legal variations of a provider, and reports differences of structure as such", async () => {
    const report = await rerunAgainst([session.cassette], RECORDED_AT, {
      through: (sandbox) =>
        startTransformingProxy(sandbox.url, contract(), {
          ...ALL_LEGAL_VARIANTS,
          finalToken: "fresh",
          varyPageSizes: false,
        }),
    });
    expect(failures(report).map((o) => `${o.id}: ${o.reason}`)).toEqual([]);
    const differing = report.outcomes.filter((o) =>
      /structure differs from the recording: added/.test(o.reason ?? ""),
    );
    expect(differing.length).toBeGreaterThan(0);
    expect(report.outcomes.some((o) => /dated change/.test(o.reason ?? ""))).toBe(false);
  });

  it("follows a longer listing of the target to its own empty page, and compares no other order's contents", async () => {
    const report = await rerunAgainst([session.cassette], RECORDED_AT, { entries: 130 });
    expect(failures(report).map((o) => `${o.id}: ${o.reason}`)).toEqual([]);
    const ends = report.outcomes.filter((o) =>
      /listing is longer than the recording's: it ended on an empty page/.test(o.reason ?? ""),
    );
    expect(ends.length).toBe(2);
    expect(
      report.outcomes.some((o) => /another resource: its contents are not compared/.test(o.reason ?? "")),
    ).toBe(true);
  });

  it("without the admin client, skips what needs it and says which flags would run it", async () => {
    const report = await rerunAgainst([session.cassette], RECORDED_AT, { withoutAdmin: true });
    expect(failures(report)).toEqual([]);
    const skipped = report.outcomes.filter((o) => o.verdict === "skip");
    expect(skipped.map((o) => o.id)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/#2 POST \/oauth2\/token$/),
        expect.stringMatching(/GET \/v5\/orders\/\d+$/),
      ]),
    );
    expect(skipped[0]?.reason).toMatch(/--admin-client-id and --admin-client-secret/);
  });

  it("at a later date, reports the count removal and the v3 switch-off as dated changes", async () => {
    const report = await rerunAgainst([session.cassette], "2026-01-01" as IsoDay);
    expect(failures(report).map((o) => `${o.id}: ${o.reason}`)).toEqual([]);
    const withCount = outcome(report, /#\d+ GET .*\/orders$/);
    expect(withCount?.rule).toBe("counts.absent-after-removal");
    expect(withCount?.reason).toMatch(
      /^dated change count-fields-removed \(2025-05-05 approx\., planned\): pagination\.totalCount and totalPages: recorded 45 and 3, now absent/,
    );
    const minusOne = outcome(report, /#\d+ GET .*\/items$/);
    expect(minusOne?.reason).toMatch(/count-fields-removed .*recorded -1 and -1, now absent/);
    const v3 = outcome(report, /GET \/v3\//);
    expect(v3?.rule).toBe("versions.v3-switched-off");
    expect(v3?.reason).toMatch(
      /^dated change v3-switch-off \(2025-06-30\): v3 answered 404 where the recording had 200/,
    );
    // what did not change says so, without any dated change
    expect(outcome(report, /public$/)?.reason).toBe("holds, same structure as recorded");
  });

  it("between the two cutoffs, shows the count removal and not the v3 switch-off", async () => {
    const report = await rerunAgainst([session.cassette], "2025-06-15" as IsoDay);
    expect(failures(report)).toEqual([]);
    expect(outcome(report, /GET \/v3\//)?.reason).toMatch(/count-fields-removed/);
    expect(report.outcomes.some((o) => /v3-switch-off/.test(o.reason ?? ""))).toBe(false);
  });

  it("re-sent at an earlier date than a later recording, names the change not yet in force", async () => {
    const later = await recordSession("2025-07-01" as IsoDay);
    try {
      const report = await rerunAgainst([later.cassette], RECORDED_AT);
      expect(failures(report)).toEqual([]);
      expect(outcome(report, /GET \/v3\//)?.reason).toMatch(
        /^dated change v3-switch-off \(2025-06-30\): not yet in force at --at; v3 answered 200 where the recording had 404/,
      );
      expect(outcome(report, /GET .*\/items$/)?.reason).toMatch(
        /count-fields-removed .*not yet in force.*recorded absent, now -1/,
      );
    } finally {
      await later.remove();
    }
  });
});
