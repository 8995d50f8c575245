import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { distIsCurrent } from "../../core/compiled.js";
import { packageRoot, packageVersion } from "../../core/paths.js";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty project, and
 * `npx assopay` run there. Dependencies come from the npm registry (the local cache first), as they would
 * for the user. The tarball holds the dist/ already built (`npm ci` builds it; `--ignore-scripts` keeps
 * `prepare` from compiling it all again): dist/ is built here first only when it is missing or was not
 * built from the sources as they are now (core/compiled.ts), so the test never packs stale code.
 */
describe("the packed tarball installs into an empty project and runs", () => {
  const work = mkdtempSync(join(tmpdir(), "assopay-pack-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("npm pack, npm install ./tarball, npx assopay verify", async () => {
    const env = { ...process.env, npm_config_audit: "false", npm_config_fund: "false" };
    if (!distIsCurrent()) await run(npm, ["run", "build"], { cwd: packageRoot(), env, maxBuffer: 1 << 26 });
    await run(npm, ["pack", "--ignore-scripts", "--pack-destination", work], {
      cwd: packageRoot(),
      env,
      maxBuffer: 1 << 26,
    });
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    expect(tarball).toBe(`assopay-contract-${packageVersion()}.tgz`);

    const project = join(work, "project");
    await run("mkdir", ["-p", project]);
    writeFileSync(
      join(project, "package.json"),
      `${JSON.stringify({ name: "uses-assopay", private: true })}\n`,
    );
    await run(npm, ["install", "--prefer-offline", join(work, tarball ?? "")], {
      cwd: project,
      env,
      maxBuffer: 1 << 26,
    });

    const version = await run(npm, ["exec", "--no", "--", "assopay", "--version"], { cwd: project, env });
    expect(version.stdout.trim()).toBe(packageVersion());

    const verify = await run(
      npm,
      ["exec", "--no", "--", "assopay", "verify", "--only", "versions", "--reporter", "json"],
      { cwd: project, env, maxBuffer: 1 << 26 },
    );
    const report = JSON.parse(verify.stdout) as { outcomes: { id: string; verdict: string }[] };
    expect(report.outcomes.map((o) => o.id)).toContain("versions/v5-unaffected");
    expect(report.outcomes.every((o) => o.verdict === "pass" || o.verdict === "skip")).toBe(true);
  });
});
