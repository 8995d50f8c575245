/**
 * Records the reference cassettes of `recordings/` from the sandbox, through the recording proxy:
 *   npx tsx test/proxy/support/record-reference.ts [--out recordings]
 * Provider states are set up on the sandbox directly (they are not API traffic); everything else goes
 * through the proxy. `test/proxy/reference.test.ts` checks the committed files.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { readPage } from "../../../contracts/index.js";
import type { IsoDay } from "../../../core/dates.js";
import { startRecorder } from "../../../proxy/record/server.js";
import { type RunningSandbox, startSandbox } from "../../../sandbox/index.js";

/** The sandbox day the reference cassettes are recorded at (counts at -1: the default is false). */
export const REFERENCE_AT = "2025-04-01" as IsoDay;

export const REFERENCE_CASSETTES = {
  crawl: "pagination-crawl.yaml",
  publicForm: "public-form.yaml",
  attachedFile: "order-attached-file.yaml",
  notification: "notification.yaml",
} as const;

async function state(sandbox: RunningSandbox, name: string, params: Record<string, unknown> = {}) {
  if (!sandbox.stateUrl) throw new Error("the reference sandbox runs with its hooks on");
  const response = await fetch(sandbox.stateUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ state: name, params, action: "setup" }),
  });
  if (response.status !== 200)
    throw new Error(`state "${name}": ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function token(base: string, sandbox: RunningSandbox): Promise<Record<string, string>> {
  const { clientId, clientSecret } = sandbox.credentials.admin;
  const response = await fetch(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  const body = (await response.json()) as { access_token: string };
  return { authorization: `Bearer ${body.access_token}` };
}

/** Runs `session` against a fresh recorder writing `file`, in front of the sandbox. */
async function record(
  sandbox: RunningSandbox,
  file: string,
  session: (base: string, notifyUrl: string) => Promise<void>,
) {
  await rm(file, { force: true });
  const recorder = await startRecorder({ upstream: sandbox.url, cassette: file });
  try {
    await session(recorder.url, recorder.notificationUrl);
  } finally {
    await recorder.close();
  }
}

/** Records every reference cassette into `out`. */
export async function recordReferences(out: string): Promise<void> {
  await mkdir(out, { recursive: true });
  const sandbox = await startSandbox({ at: REFERENCE_AT, entries: 45, notificationRetryDelaysMs: [20, 40] });
  try {
    const form = await state(sandbox, "a form with entries", { count: 45, pageSize: 20 });
    await record(sandbox, join(out, REFERENCE_CASSETTES.crawl), async (base) => {
      const auth = await token(base, sandbox);
      let continuation: string | undefined;
      for (let page = 0; page < 10; page++) {
        const query = new URLSearchParams({ pageSize: "20" });
        if (continuation !== undefined) query.set("continuationToken", continuation);
        const response = await fetch(`${base}${String(form.itemsPath)}?${query}`, { headers: auth });
        const page = readPage(await response.json(), "data");
        if (!page.ok || page.entries.length === 0) break;
        continuation = page.token;
      }
    });

    const publicForm = await state(sandbox, "a form with custom fields and options and no order");
    await record(sandbox, join(out, REFERENCE_CASSETTES.publicForm), async (base) => {
      await fetch(`${base}${String(publicForm.publicFormPath)}`, { headers: await token(base, sandbox) });
    });

    const order = await state(sandbox, "an order with an attached file");
    await record(sandbox, join(out, REFERENCE_CASSETTES.attachedFile), async (base) => {
      const auth = await token(base, sandbox);
      const detail = (await (
        await fetch(`${base}${String(order.orderDetailPath)}`, { headers: auth })
      ).json()) as {
        items: { customFields?: { type: string; answer: string }[] }[];
      };
      const file = detail.items.flatMap((i) => i.customFields ?? []).find((f) => f.type === "File");
      if (!file) throw new Error("the order detail names no attached file");
      const response = await fetch(`${base}${new URL(file.answer).pathname}`, { headers: auth });
      await response.arrayBuffer();
    });

    await record(sandbox, join(out, REFERENCE_CASSETTES.notification), async (base, notifyUrl) => {
      const auth = await token(base, sandbox);
      const headers = { ...auth, "content-type": "application/json" };
      await fetch(`${base}/v5/partners/me/api-notifications`, {
        method: "PUT",
        headers,
        body: JSON.stringify({ url: notifyUrl }),
      });
      await fetch(`${base}/v5/partners/me`, { headers: auth });
      await state(sandbox, "an order is paid");
      await sandbox.core.notifier.settled();
    });
  } finally {
    await sandbox.close();
  }
}

if (process.argv[1]?.endsWith("record-reference.ts")) {
  const flag = process.argv.indexOf("--out");
  await recordReferences(flag > 0 ? (process.argv[flag + 1] ?? "recordings") : "recordings");
}
