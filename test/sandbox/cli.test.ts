import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sandboxCommand } from "../../cli/commands/sandbox.js";
import { isAssopayError } from "../../core/errors.js";
import { packageRoot } from "../../core/paths.js";
import type { DataFile } from "../../sandbox/data/data-file.js";
import { faults } from "../../sandbox/faults.js";
import { captureStream } from "../support/streams.js";

function context(argv: string[], signal = new AbortController().signal) {
  const stdout = captureStream();
  const stderr = captureStream();
  return { ctx: { argv, stdout: stdout.stream, stderr: stderr.stream, env: {}, signal }, stdout, stderr };
}

async function waitForLine(read: () => string): Promise<string> {
  while (!read().includes("\n")) await new Promise((r) => setTimeout(r, 10));
  return read();
}

describe("assopay sandbox", () => {
  it("prints exactly one JSON line with --json, serves, and stops on the abort signal", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = context(
      ["--port", "0", "--json", "--at", "2025-06-15", "--entries", "12", "--seed", "3"],
      controller.signal,
    );
    const running = sandboxCommand.run(ctx);
    const line = await waitForLine(stdout.text);
    expect(line.trim().split("\n")).toHaveLength(1);
    const info = JSON.parse(line) as Record<string, unknown> & {
      admin: { clientId: string; clientSecret: string };
      url: string;
    };
    expect(Object.keys(info)).toEqual([
      "url",
      "stateUrl",
      "at",
      "entries",
      "seed",
      "fault",
      "shapes",
      "organizationSlug",
      "formType",
      "formSlug",
      "admin",
      "reader",
    ]);
    expect(info).toMatchObject({
      at: "2025-06-15",
      entries: 12,
      seed: 3,
      fault: null,
      shapes: "seed",
      stateUrl: `${info.url}/_states`,
    });
    const token = await fetch(`${info.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: info.admin.clientId,
        client_secret: info.admin.clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    controller.abort();
    await expect(running).resolves.toBe(0);
    await expect(fetch(`${info.url}/_clock`)).rejects.toThrow();
  });

  it("prints where it listens and the credentials without --json", async () => {
    const controller = new AbortController();
    const { ctx, stdout, stderr } = context(["--port", "0", "--fault", "never-ending"], controller.signal);
    const running = sandboxCommand.run(ctx);
    await waitForLine(stdout.text);
    await new Promise((r) => setTimeout(r, 20));
    const text = stdout.text();
    expect(text).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(text).toMatch(/admin client\s+assopay-admin\s+adm_/);
    expect(text).toMatch(/reader client\s+assopay-reader\s+rdr_/);
    expect(text).toContain("fault never-ending");
    expect(text).toMatch(/shapes seed \(an entry's amount is \{total, vat\}\)/);
    controller.abort();
    await expect(running).resolves.toBe(0);
    expect(stderr.text()).toContain("stopped");
  });

  it("says on its startup line which --shapes it serves", async () => {
    const controller = new AbortController();
    const { ctx, stdout } = context(["--port", "0", "--shapes", "document"], controller.signal);
    const running = sandboxCommand.run(ctx);
    await waitForLine(stdout.text);
    expect(stdout.text().split("\n")[1]).toMatch(
      /shapes document \(an entry's amount is the item's integer cents\)/,
    );
    controller.abort();
    await expect(running).resolves.toBe(0);
    expect(sandboxCommand.help).toMatch(/The startup line \(and --json's "shapes"\) says which/);
  });

  it("serves the data of recorded sessions with --from-cassette FILE..., the same as --print-data shows", async () => {
    const cassettes = ["pagination-crawl.yaml", "public-form.yaml"].map((f) =>
      join(packageRoot(), "recordings", f),
    );
    const printed = context(["--from-cassette", ...cassettes, "--print-data", "-"]);
    await expect(sandboxCommand.run(printed.ctx)).resolves.toBe(0);
    const derived = parse(printed.stdout.text()) as DataFile;
    const collecte = derived.organizations?.[0]?.forms?.find((f) => f.slug === "collecte-45");
    const declared = Array.isArray(collecte?.orders) ? collecte.orders.map((o) => o.id) : [];
    expect(declared.length).toBeGreaterThan(20);
    const controller = new AbortController();
    const { ctx, stdout } = context(
      ["--port", "0", "--json", "--from-cassette", ...cassettes],
      controller.signal,
    );
    const running = sandboxCommand.run(ctx);
    const info = JSON.parse(await waitForLine(stdout.text)) as {
      url: string;
      admin: { clientId: string; clientSecret: string };
    };
    const token = (await (
      await fetch(`${info.url}/oauth2/token`, {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: info.admin.clientId,
          client_secret: info.admin.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const page = (await (
      await fetch(
        `${info.url}/v5/organizations/amis-du-bac-a-sable/forms/Donation/collecte-45/items?pageSize=100&sortOrder=Asc`,
        {
          headers: { authorization: `Bearer ${token.access_token}` },
        },
      )
    ).json()) as { data: { id: number }[] };
    expect(page.data.map((e) => e.id)).toEqual(declared);
    controller.abort();
    await expect(running).resolves.toBe(0);
  });

  it("lists the faults with the rule each breaks", async () => {
    const { ctx, stdout } = context(["--list-faults"]);
    await expect(sandboxCommand.run(ctx)).resolves.toBe(0);
    for (const fault of faults)
      expect(stdout.text()).toMatch(new RegExp(`${fault.name}\\s+${fault.rule.replaceAll(".", "\\.")}`));
    const json = context(["--list-faults", "--json"]);
    await sandboxCommand.run(json.ctx);
    expect(JSON.parse(json.stdout.text())).toEqual(faults);
  });

  it.each([
    [["--fault", "gremlins"], /unknown fault/],
    [["--at", "2025-13-01"], /--at/],
    [["--entries", "2000000"], /--entries/],
    [["--port", "70000"], /--port/],
    [["--seed", "-1"], /--seed/],
    [["--colour"], /colour/],
  ])("refuses %j as bad usage (exit 2)", async (argv, message) => {
    const { ctx } = context(argv);
    const error = await sandboxCommand.run(ctx).catch((e: unknown) => e);
    expect(isAssopayError(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as { exitCode: number }).exitCode).toBe(2);
  });

  it("documents every flag in --help", () => {
    for (const flag of [
      "--port",
      "--host",
      "--at",
      "--seed",
      "--entries",
      "--fault",
      "--json",
      "--list-faults",
      "/_states",
      "/_clock",
    ]) {
      expect(sandboxCommand.help).toContain(flag);
    }
  });
});

describe("docs/sandbox.md", () => {
  it("lists every fault with the rule it breaks", async () => {
    const { readFile } = await import("node:fs/promises");
    const text = await readFile(new URL("../../docs/sandbox.md", import.meta.url), "utf8");
    for (const fault of faults) {
      expect(text).toMatch(
        new RegExp(`\\| \`${fault.name}\`\\s+\\| \`${fault.rule.replaceAll(".", "\\.")}\``),
      );
    }
  });
});
