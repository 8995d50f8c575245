import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { startRecorder } from "../../proxy/record/server.js";
import { buildSandboxData, parseDataFile, readDataFile } from "../../sandbox/index.js";
import { clientPath } from "../gate/support.js";
import { tempDir } from "../proxy/support/http.js";
import { docExample } from "../support/data-example.js";
import { runCli, sharedContractLoader } from "../support/run-cli.js";
import { day, type Harness, harness } from "./helpers.js";

interface Entry {
  id: number;
  payer: { firstName: string; email: string };
  customFields: { name: string; type: string }[];
}
type Page = { data: Entry[]; pagination: { continuationToken?: string } };

/** Every entry of a listing, page by page at `pageSize`, through `get`. */
async function crawl(get: (path: string) => Promise<Page>, path: string, pageSize: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  let token: string | undefined;
  for (let page = 0; page < 200; page++) {
    const query = `pageSize=${pageSize}${token ? `&continuationToken=${encodeURIComponent(token)}` : ""}`;
    const body = await get(`${path}?${query}`);
    if (body.data.length === 0) return entries;
    entries.push(...body.data);
    token = body.pagination.continuationToken;
  }
  throw new Error(`${path} never ended`);
}

/** What the test compares between the recorded sandbox and the one seeded from the recording. */
interface Seen {
  organizations: string[];
  forms: Record<string, string[]>;
  fields: Record<string, string[]>;
  entries: Record<string, { ids: number[]; keys: string[]; answered: string[] }>;
  payers: string[];
}

/** Organizations, forms, their public custom fields and their items, at one page size. */
async function look(get: <T>(path: string) => Promise<T>, pageSize: number): Promise<Seen> {
  const seen: Seen = { organizations: [], forms: {}, fields: {}, entries: {}, payers: [] };
  const organizations = await get<{ organizationSlug: string }[]>("/v5/users/me/organizations");
  seen.organizations = organizations.map((o) => o.organizationSlug).sort();
  for (const slug of seen.organizations) {
    const forms = await get<{ data: { formType: string; formSlug: string }[] }>(
      `/v5/organizations/${slug}/forms?pageSize=50`,
    );
    const names = forms.data.map((f) => `${f.formType}/${f.formSlug}`).sort();
    seen.forms[slug] = names;
    for (const name of names) {
      const base = `/v5/organizations/${slug}/forms/${name}`;
      const form = await get<{ customFields: { label: string; type: string }[] }>(`${base}/public`);
      seen.fields[`${slug}/${name}`] = form.customFields.map((f) => `${f.label}:${f.type}`);
      const entries = await crawl((p) => get<Page>(p), `${base}/items`, pageSize);
      seen.entries[`${slug}/${name}`] = {
        ids: entries.map((e) => e.id).sort((a, b) => a - b),
        keys: [...new Set(entries.flatMap((e) => Object.keys(e)))].sort(),
        answered: [
          ...new Set(entries.flatMap((e) => e.customFields.map((f) => `${f.name}:${f.type}`))),
        ].sort(),
      };
      seen.payers.push(...entries.map((e) => `${e.id}:${e.payer.firstName}:${e.payer.email}`));
    }
  }
  seen.payers.sort();
  return seen;
}

describe("sandbox --from-cassette: a recorded session seeds a sandbox that serves it statefully", () => {
  let recorded: Harness;
  let seeded: Harness;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let throughRecorder: Seen;
  let cassetteFile = "";

  beforeAll(async () => {
    temp = await tempDir();
    const { text, file } = docExample();
    recorded = await harness({
      at: day("2025-07-01"),
      entries: 30,
      data: buildSandboxData(parseDataFile(text, file), 1),
    });
    const cassette = temp.file("session.yaml");
    cassetteFile = cassette;
    const recorder = await startRecorder({ upstream: recorded.url, cassette, redactPii: true });
    const token = await recorded.token("admin");
    const get = async <T>(path: string): Promise<T> => {
      const response = await fetch(`${recorder.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    throughRecorder = await look(get, 10);
    await recorder.close();

    const printed = temp.file("derived.yaml");
    const cli = await runCli(["sandbox", "--from-cassette", cassette, "--print-data", printed]);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    seeded = await harness({ at: day("2025-07-01"), data: buildSandboxData(readDataFile(printed), 2) });
  });

  afterAll(async () => {
    await recorded?.close();
    await seeded?.close();
    await temp?.remove();
  });

  it("serves the same organizations, forms, custom fields and entry shapes, at a page size the recording never used", async () => {
    const again = await look(async <T>(path: string) => (await seeded.json<T>(path)).body, 7);
    expect(again.organizations).toEqual(throughRecorder.organizations);
    expect(again.forms).toEqual(throughRecorder.forms);
    expect(again.fields).toEqual(throughRecorder.fields);
    expect(again.entries).toEqual(throughRecorder.entries);
    const club = again.entries["club-des-lecteurs/Membership/adhesion-2025"];
    expect(club?.ids).toHaveLength(45);
    expect(club?.answered).toEqual(["Justificatif:File", "Société:TextInput", "Taille:ChoiceList"]);
  });

  it("keeps the recording's redacted payers as they are, not the originals", async () => {
    const again = await look(async <T>(path: string) => (await seeded.json<T>(path)).body, 13);
    const emails = (payers: string[]) => payers.map((p) => p.split(":")[2] ?? "");
    const recordedText = await readFile(cassetteFile, "utf8");
    expect(again.payers).toHaveLength(throughRecorder.payers.length);
    for (const email of emails(again.payers)) expect(recordedText).toContain(email);
    const originals = new Set(emails(throughRecorder.payers));
    expect(emails(again.payers).filter((e) => originals.has(e))).toEqual([]);
  });

  it("serves the seeded orders statefully: a refund shows on later reads", async () => {
    const path = "/v5/organizations/club-des-lecteurs/forms/Membership/adhesion-2025/orders?pageSize=3";
    const order = (
      await seeded.json<{ data: { id: number; payments: { id: number; amount: number }[] }[] }>(path)
    ).body.data[0];
    const payment = order?.payments[0];
    if (!order || !payment) throw new Error("no order");
    const refund = await seeded.send("POST", `/v5/payments/${payment.id}/refund?amount=100`, "");
    expect(refund.status).toBe(200);
    const after = await seeded.json<{ payments: { refundOperations: { amount: number }[] }[] }>(
      `/v5/orders/${order.id}`,
    );
    expect(after.body.payments[0]?.refundOperations.map((r) => r.amount)).toEqual([100]);
  });
});

describe("sandbox --from-cassette: the recorded app logs in with its own client", () => {
  let recorded: Harness;
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let cassette = "";
  const stop = new AbortController();
  let served: Promise<number> | undefined;
  let url = "";
  const app = { id: "my-sdk-ci", secret: "my-sdk-ci-secret" };
  /** The test's gate client that logs in (client_credentials) and crawls two listings. */
  const runApp = (base: string, secret: string) =>
    promisify(execFile)(process.execPath, [clientPath("correct")], {
      env: {
        ASSOPAY_BASE_URL: base,
        ASSOPAY_CLIENT_ID: app.id,
        ASSOPAY_CLIENT_SECRET: secret,
        ASSOPAY_ORG: "club-des-lecteurs",
        ASSOPAY_FORM_TYPE: "Membership",
        ASSOPAY_FORM_SLUG: "adhesion-2025",
      },
    });

  beforeAll(async () => {
    temp = await tempDir();
    const { text, file } = docExample();
    recorded = await harness({ at: day("2025-07-01"), data: buildSandboxData(parseDataFile(text, file), 1) });
    cassette = temp.file("app.yaml");
    const recorder = await startRecorder({ upstream: recorded.url, cassette });
    await runApp(recorder.url, app.secret);
    await recorder.close();
    // `assopay sandbox --from-cassette` as a user runs it, in-process, until aborted.
    const firstLine = new Promise<string>((resolve) => {
      let text = "";
      const stdout = new Writable({
        write(chunk, _encoding, done) {
          text += String(chunk);
          if (text.includes("\n")) resolve(text.split("\n")[0] ?? "");
          done();
        },
      });
      served = main(["sandbox", "--from-cassette", cassette, "--port", "0", "--json"], {
        stdout,
        stderr: new Writable({ write: (_chunk, _encoding, done) => done() }),
        env: {},
        signal: stop.signal,
        loadContract: sharedContractLoader,
      });
    });
    url = (JSON.parse(await firstLine) as { url: string }).url;
  });

  afterAll(async () => {
    stop.abort();
    await served;
    await recorded?.close();
    await temp?.remove();
  });

  it("keeps the app's secret out of the cassette: its token request holds the placeholder", async () => {
    const text = await readFile(cassette, "utf8");
    expect(text).not.toContain(app.secret);
    expect(text).toContain(`client_id=${app.id}&client_secret=${placeholderFor(app.secret)}`);
  });

  it("lets the app in with its own id and secret, and it crawls what it recorded", async () => {
    const { stdout } = await runApp(url, app.secret);
    expect(stdout).toMatch(/^crawled 45 items and \d+ orders/);
  });

  it("lets the app in with the secret as the cassette holds it, and no one with another secret", async () => {
    await expect(runApp(url, placeholderFor(app.secret))).resolves.toBeDefined();
    await expect(runApp(url, "not-the-app-secret")).rejects.toThrow(/login failed: 401/);
  });
});
