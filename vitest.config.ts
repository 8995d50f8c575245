import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { SlowestFirst } from "./test/support/sequencer.js";
import { suitePass } from "./test/support/suite-pass.js";

/**
 * Test files that patch Node's own modules in the test process (nock replaces `http.request`; the
 * intercept test installs and removes its fetch and `http` hooks; the recovery test imports nock). They run
 * in the project "own-thread": each in a fresh worker thread (the threads pool, isolated), which has its own
 * copy of Node's modules, so no other file ever shares them. vitest runs that pool beside the forks; as
 * projects of forks of their own they ran one after another, after the rest, 8 s with a core idle.
 */
const PATCH_NODE = [
  "test/proxy/nock.test.ts",
  "test/proxy/intercept.test.ts",
  "test/proxy/recovery-readers.test.ts",
];

/**
 * Test files that prove the ecosystem's own tools accept our outputs: npm (the packed tarball), Prism, the
 * official Pact binary (verifier, stub server, broker client), chromium and xmllint. `.ci/run` runs them
 * once, on the machine's Node: the tools are the same programs whichever Node runs the suite, so its
 * Node 24 pass (`ASSOPAY_SUITE_PASS=other-node`) leaves them out. They are files of the main project, not
 * a project of their own: vitest runs projects one after another when forks are not isolated, and a
 * project of ten files ran 32 s after the rest, a core often idle.
 */
const EXTERNAL = [
  "test/package/pack.test.ts",
  "test/openapi/prism-mock.test.ts",
  "test/openapi/prism-proxy.test.ts",
  "test/openapi/prism-verify.test.ts",
  "test/pact/official-verifier.test.ts",
  "test/pact/stub-server.test.ts",
  "test/pact/broker.test.ts",
  "test/sandbox/checkout-browser.test.ts",
  "test/servers/cross-site-browser.test.ts",
  "test/report/junit-schema.test.ts",
  "test/report/html-browser.test.ts",
  "test/proxy/har-browser.test.ts",
];

export default defineConfig({
  test: {
    // One limit for every test and hook, none of their own: a limit catches a test that hangs, and must
    // never fail one that a loaded machine runs slowly (scripts/test-under-load.sh runs the suite beside
    // a busy loop per core). A fault matrix takes about 2 minutes on two quiet cores.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: "forks",
    // One fork per core: vitest's default keeps a core for itself, one fork on a two-core CI machine,
    // which leaves a core idle while a file waits on sockets, child processes or timers.
    maxWorkers: availableParallelism(),
    minWorkers: 1,
    // A fork runs file after file with the modules it has loaded (the code keeps no module-level state):
    // loading the same modules again for each test file cost about a third of the suite's CPU (114 files then).
    isolate: false,
    // The project "own-thread" (below): a fresh worker thread for each of its files, and none kept idle. A
    // thread kept idle to the end was torn down as vitest closed, and once that teardown failed as an
    // unhandled rejection ("Terminating worker thread"): a red run with every test passed.
    poolOptions: { threads: { isolate: true, minThreads: 0 } },
    // The slowest files first (test/file-seconds.json): see test/support/sequencer.ts.
    sequence: { sequencer: SlowestFirst },
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...PATCH_NODE, ...(suitePass() === "full" ? [] : EXTERNAL)],
        },
      },
      { extends: true, test: { name: "own-thread", include: PATCH_NODE, pool: "threads" } },
    ],
  },
});
