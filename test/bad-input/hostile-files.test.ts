import { execFileSync } from "node:child_process";
import { readlinkSync, symlinkSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitDocument } from "../../proxy/cassette/emit.js";
import { interactions, writeCassette } from "../proxy/support/cassettes.js";
import { tempDir } from "../proxy/support/http.js";
import { spawnCli } from "../proxy/support/recorder-process.js";
import { runCli } from "../support/run-cli.js";

/** Every reader of a file the user names, as a command line taking FILE. */
const READERS: readonly [string, (file: string) => string[]][] = [
  ["lint CASSETTE", (file) => ["lint", file]],
  ["verify --cassette", (file) => ["verify", "--cassette", file]],
  ["sandbox --data", (file) => ["sandbox", "--data", file, "--port", "0"]],
  ["sandbox --from-cassette", (file) => ["sandbox", "--from-cassette", file, "--port", "0"]],
  ["openapi --timeline", (file) => ["openapi", "--timeline", file]],
  ["contracts --timeline", (file) => ["contracts", "--timeline", file]],
  ["drift --openapi", (file) => ["drift", "--openapi", file]],
  ["replay --cassette", (file) => ["replay", "--cassette", file, "--port", "0"]],
];

/** What a stolen `/etc/shadow` looks like: nothing of it may reach an error message. */
const SHADOW = "root:$6$SECRETHASHzq81$abcdefgh:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n";

describe("hostile files: refused up front, with a position and what was expected", () => {
  let temp: Awaited<ReturnType<typeof tempDir>>;
  let socketServer: Server;
  beforeAll(async () => {
    temp = await tempDir();
    execFileSync("mkfifo", [temp.file("fifo")]);
    socketServer = createServer();
    await new Promise<void>((resolve) => socketServer.listen(temp.file("socket"), resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => socketServer.close(resolve));
    await temp.remove();
  });

  it.each(READERS)("%s: a FIFO with no writer, a device and a socket get exit 2 at once", async (_, argv) => {
    for (const [file, kind] of [
      [temp.file("fifo"), "is a FIFO (a named pipe), not a regular file"],
      ["/dev/zero", "is a device, not a regular file"],
      [temp.file("socket"), "socket"],
    ] as const) {
      const result = await runCli(argv(file));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${file}: cannot read the`);
      expect(result.stderr).toContain(kind);
      expect(result.stderr).not.toContain("error[internal]");
    }
  });

  it.each(READERS)(
    "%s: a link to a file of another format gets an error that quotes none of it",
    async (_, argv) => {
      const shadow = temp.file("shadow");
      await writeFile(shadow, SHADOW);
      const link = temp.file(`link-${argv("x").join("-").replace(/\W/g, "")}`);
      symlinkSync(shadow, link);
      expect(readlinkSync(link)).toBe(shadow);
      const result = await runCli(argv(link));
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`${link.replace(/[.\\/]/g, "\\$&")}:1: `));
      for (const piece of ["SECRETHASH", "root", "daemon", "19000", "99999"])
        expect(result.stderr).not.toContain(piece);
    },
  );

  it("a file of the tool's own format still gets its values named (a data file's unknown key)", async () => {
    const file = temp.file("data.yaml");
    await writeFile(file, "organizations: []\nfavouriteColour: blue\n");
    const result = await runCli(["sandbox", "--data", file, "--port", "0"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("favouriteColour");
  });

  /** Aliases of aliases: 9 levels of 9, some 387 million nodes once expanded. */
  const BOMB = [
    'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]',
    ...Array.from({ length: 8 }, (_, i) => {
      const name = String.fromCharCode(98 + i);
      const previous = String.fromCharCode(97 + i);
      return `${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`;
    }),
  ].join("\n");

  it.each([
    ["drift --openapi", "openapi: 3.0.3\npaths: {}\n", (file: string) => ["drift", "--openapi", file]],
    ["sandbox --data", "organizations: []\n", (file: string) => ["sandbox", "--data", file, "--port", "0"]],
    [
      "openapi --timeline",
      "format: assopay-timeline/1\nentries: []\n",
      (file: string) => ["openapi", "--timeline", file],
    ],
  ] as const)("%s: an alias bomb is exit 2 with file:line, never error[internal]", async (_, start, argv) => {
    const file = temp.file("bomb.yaml");
    await writeFile(file, `${start}${BOMB}\n`);
    const lines = `${start}${BOMB}`.split("\n");
    const line = lines.findIndex((l) => l.includes("*a")) + 1;
    const result = await runCli(argv(file));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `${file}:${line}: the YAML aliases expand to too much (more than 1000 nodes each)`,
    );
  });

  it("lint, replay and verify --cassette: a cassette nested 3,000 deep is exit 2 with file:line", async () => {
    const file = temp.file("deep.yaml");
    const header = (
      await readFile(
        await (async () => {
          const good = temp.file("good.yaml");
          await writeCassette(good, [{ path: "/v5/partners/me" }]);
          return good;
        })(),
        "utf8",
      )
    ).split("...\n")[0];
    const deep = Array.from({ length: 3000 }, (_, i) => `${"  ".repeat(i + 3)}k${i}:\n`).join("");
    const doc = `---\nid: 1\nrecordedAt: "2025-05-01T10:00:01.000Z"\nrequest:\n  method: GET\n  path: /v5/partners/me\n  headers: {}\nresponse:\n  status: 200\n  headers: {}\n  body:\n    json:\n${deep}${"  ".repeat(3003)}v: 1\n...\n`;
    await writeFile(file, `${header}...\n${doc}`);
    for (const argv of [
      ["lint", file],
      ["verify", "--cassette", file],
      ["replay", "--cassette", file, "--port", "0"],
    ]) {
      const result = await runCli(argv);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `${file.replace(/[.\\/]/g, "\\$&")}:\\d+(:\\d+)?: the cassette document is not valid YAML: nesting too deep`,
        ),
      );
    }
  });

  it("legal anchors and aliases, and nesting well within the bound, still load", async () => {
    const file = temp.file("aliases.yaml");
    await writeFile(file, `openapi: 3.0.3\ninfo: &info {title: x, version: "1"}\ncopy: *info\npaths: {}\n`);
    const result = await runCli(["drift", "--openapi", file]);
    expect(result.stderr).not.toContain("aliases expand");
    expect(result.stderr).not.toContain("error[");
    const cassette = temp.file("nested.yaml");
    let body: unknown = 1;
    for (let i = 0; i < 100; i++) body = { k: body };
    await writeCassette(cassette, [{ path: "/v5/partners/me", body: { json: body } }]);
    const lint = await runCli(["lint", cassette]);
    expect(lint.stderr).not.toContain("error[");
  });

  it("every verb ends at SIGTERM while it reads, whatever it reads", async () => {
    // A cassette of 64 MB: lint reads it for seconds, long after the signal is sent.
    const file = temp.file("large.yaml");
    const [first] = interactions([{ path: "/v5/partners/me", body: { text: "x".repeat(8000) } }]);
    const one = emitDocument({ ...first });
    const header = await readFile(
      await (async () => {
        const good = temp.file("good2.yaml");
        await writeCassette(good, []);
        return good;
      })(),
      "utf8",
    );
    const docs: string[] = [header];
    for (let id = 1; id <= 8000; id++) docs.push(one.replace(/^id: 1$/m, `id: ${id}`));
    await writeFile(file, docs.join(""));
    const child = spawnCli(["lint", file]);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // Wait until it has the file open (an event seen in /proc, not a guess at how long it takes).
    for (;;) {
      const fds = await readdir(`/proc/${child.pid}/fd`).catch(() => [] as string[]);
      const open = fds.some((fd) => {
        try {
          return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === file;
        } catch {
          return false;
        }
      });
      if (open) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(stderr).toContain("assopay lint: stopped by SIGTERM");
  });

  it("assopay help frob and assopay --version --nope are usage errors; help VERB and --version alone are not", async () => {
    const frob = await runCli(["help", "frob"]);
    expect(frob.code).toBe(2);
    expect(frob.stderr).toContain('unknown verb "frob"');
    const nope = await runCli(["--version", "--nope"]);
    expect(nope.code).toBe(2);
    expect(nope.stderr).toContain('--version takes nothing after it, got "--nope"');
    expect((await runCli(["--help", "lint"])).code).toBe(2);
    const help = await runCli(["help", "drift"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("assopay drift: compare the contract");
    expect((await runCli(["--version"])).code).toBe(0);
    expect((await runCli(["help"])).code).toBe(0);
  });
});
