import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { isAssopayError } from "../../core/errors.js";
import { contractsDir } from "../../core/paths.js";
import { startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { resolveOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { tempDir } from "../proxy/support/http.js";
import { contract, sandboxInput } from "../specs/support/harness.js";
import { runCli } from "../support/run-cli.js";

/**
 * User mistakes that were reported as "a fault of assopay" (error[internal]) or as errored checks:
 * each is now a user error with what, where and how to fix it (docs/bad-inputs.md).
 */
let temp: Awaited<ReturnType<typeof tempDir>>;
const pactName = () => readdirSync(join(contractsDir(), "pacts")).find((n) => n.endsWith(".json")) ?? "";

beforeAll(async () => {
  temp = await tempDir();
  writeFileSync(temp.file("plain.txt"), "not a folder\n");
  writeFileSync(
    temp.file("paths-list.yaml"),
    "openapi: 3.0.1\ninfo: {title: x, version: '1'}\npaths: [a, b]\n",
  );
  mkdirSync(temp.file("folder.yaml"));
  mkdirSync(join(temp.file("pacts-with-folder"), pactName()), { recursive: true });
});
afterAll(() => temp.remove());

interface Mistake {
  name: string;
  argv: () => string[];
  code: number;
  stderr: RegExp;
}

const mistakes: Mistake[] = [
  {
    name: "openapi --out in a folder that does not exist",
    argv: () => ["openapi", "--out", temp.file("missing/openapi.yaml")],
    code: 2,
    stderr:
      /^error\[usage\]: assopay openapi: cannot write --out .*missing\/openapi\.yaml: the folder .*missing does not exist\nhint: create it first \(mkdir -p /,
  },
  {
    name: "openapi --out below a file",
    argv: () => ["openapi", "--out", join(temp.file("plain.txt"), "openapi.yaml")],
    code: 2,
    stderr:
      /^error\[usage\]: assopay openapi: cannot write --out .*: a part of .*plain\.txt is a file, not a folder\nhint: /,
  },
  {
    name: "openapi --out an existing folder",
    argv: () => ["openapi", "--out", temp.file("folder.yaml")],
    code: 2,
    stderr:
      /^error\[usage\]: assopay openapi: --out .*folder\.yaml is a folder, not a file\nhint: name a file, for example --out .*folder\.yaml\/openapi\.yaml/,
  },
  {
    name: "record --cassette a folder",
    argv: () => [
      "record",
      "--upstream",
      "http://127.0.0.1:2",
      "--cassette",
      temp.file("folder.yaml"),
      "--port",
      "0",
    ],
    code: 2,
    stderr:
      /^error\[usage\]: .*folder\.yaml: --cassette .*folder\.yaml is a folder, not a cassette file\nhint: name a file, for example --cassette .*folder\.yaml\/session\.yaml/,
  },
  {
    name: "contracts --out a folder holding a folder named like a pact file",
    argv: () => ["contracts", "--out", temp.file("pacts-with-folder")],
    code: 2,
    stderr:
      /^error\[conflict\]: .*pacts-with-folder\/assopay-consumer-.*\.json exists and is not a pact assopay wrote: it is kept, nothing was written\nhint: choose another --out, move the file away, or add --force/,
  },
  {
    name: "contracts --check --out a folder holding a folder named like a pact file",
    argv: () => ["contracts", "--check", "--out", temp.file("pacts-with-folder")],
    code: 1,
    stderr: /^$/,
  },
  {
    name: "drift --openapi a document whose paths are a list",
    argv: () => ["drift", "--openapi", temp.file("paths-list.yaml")],
    code: 2,
    stderr: /^error\[bad-input\]: .*paths-list\.yaml:3: .*paths-list\.yaml has no "paths" object\nhint: /,
  },
];

describe("user mistakes are user errors, never 'a fault of assopay' (docs/bad-inputs.md)", () => {
  for (const { name, argv, code, stderr } of mistakes) {
    it(name, async () => {
      const result = await runCli(argv());
      expect(result.code, result.stderr).toBe(code);
      expect(result.stderr).toMatch(stderr);
      expect(result.stderr).not.toContain("internal");
      expect(result.stderr).not.toContain("fault of assopay");
    });
  }

  it("verify --receiver-port a port in use is a usage error naming the flag, not errored checks", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    const AT = "2025-07-01" as IsoDay;
    const sandbox = await startSandbox({ port: 0, at: AT, entries: 20, contract: contract() });
    try {
      const input = sandboxInput(sandbox, AT, { only: ["notifications"], receiverPort: port });
      const run = runVerify(resolveOptions(input), allChecks(), { contract: contract() });
      await expect(run).rejects.toSatisfy(
        (e: unknown) =>
          isAssopayError(e) &&
          e.code === "usage" &&
          e.message.includes(`cannot listen on 127.0.0.1:${port}`) &&
          (e.hint ?? "").includes("--receiver-port"),
      );
    } finally {
      await sandbox.close();
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it("the legal variants work: a new file, a device, a fresh --out, a free --receiver-port", async () => {
    mkdirSync(temp.file("out"));
    expect((await runCli(["openapi", "--out", temp.file("out/openapi.yaml")])).code).toBe(0);
    expect((await runCli(["openapi", "--out", "/dev/null", "--format", "yaml"])).code).toBe(0);
    expect((await runCli(["contracts", "--out", temp.file("out/pacts")])).code).toBe(0);
    expect((await runCli(["contracts", "--check", "--out", temp.file("out/pacts")])).code).toBe(0);
    const AT = "2025-07-01" as IsoDay;
    const sandbox = await startSandbox({ port: 0, at: AT, entries: 20, contract: contract() });
    try {
      const input = sandboxInput(sandbox, AT, { only: ["notifications"], receiverPort: 0 });
      const report = await runVerify(resolveOptions(input), allChecks(), { contract: contract() });
      expect(report.outcomes.filter((o) => o.verdict === "error")).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
