import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { SlowestFirst } from "./test/support/sequencer.js";

/**
 * Test files that patch Node's own modules in the test process (nock replaces `http.request`; the
 * intercept test installs and removes its fetch and `http` hooks). Each gets a project of its own: vitest
 * gives every project fresh forks, so no other file ever shares a process with them.
 */
const PATCH_NODE = [
  "test/proxy/nock.test.ts",
  "test/proxy/intercept.test.ts",
  "test/proxy/recovery-readers.test.ts",
];

/**
 * Test files that prove the ecosystem's own tools accept our outputs: npm (the packed tarball), Prism, the
 * official Pact binary (verifier, stub server, broker client), chromium and xmllint. They run in the
 * project "external", which `.ci/run` runs once, on the machine's Node: the tools are the same programs
 * whichever Node runs the suite, so the Node 24 pass leaves them out (`--project '!external'`).
 */
const EXTERNAL = [
  "test/package/pack.test.ts",
  "test/openapi/prism-mock.test.ts",
  "test/openapi/prism-proxy.test.ts",
  "test/pact/official-verifier.test.ts",
  "test/pact/stub-server.test.ts",
  "test/pact/broker.test.ts",
  "test/sandbox/checkout-browser.test.ts",
  "test/servers/cross-site-browser.test.ts",
  "test/report/junit-schema.test.ts",
  "test/report/html-browser.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // One fork per core: vitest's default keeps a core for itself, one fork on a two-core CI machine,
    // which leaves a core idle while a file waits on sockets, child processes or timers.
    maxWorkers: availableParallelism(),
    minWorkers: 1,
    // A fork runs file after file with the modules it has loaded (the code keeps no module-level state):
    // loading the same modules again for each test file cost about a third of the suite's CPU (114 files then).
    isolate: false,
    // The slowest files first (test/file-seconds.json): see test/support/sequencer.ts.
    sequence: { sequencer: SlowestFirst },
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...PATCH_NODE, ...EXTERNAL],
        },
      },
      { extends: true, test: { name: "external", include: EXTERNAL } },
      ...PATCH_NODE.map((file) => ({
        extends: true as const,
        test: { name: file.replace(/^test\/|\.test\.ts$/g, ""), include: [file] },
      })),
    ],
  },
});
