/**
 * The passes `.ci/run` makes over the suite: `full` on the machine's Node, then `other-node` on Node 24
 * (`ASSOPAY_SUITE_PASS=other-node`), which leaves out what only repeats, on another Node, JavaScript
 * decisions the first pass proved, and keeps every path through Node's own modules (bench/history/test-durations.md
 * says which tests and why).
 */
export const SUITE_PASSES = ["full", "other-node"] as const;
export type SuitePass = (typeof SUITE_PASSES)[number];

/** The pass this run of the suite is, from `ASSOPAY_SUITE_PASS` (unset: `full`). */
export function suitePass(env: NodeJS.ProcessEnv = process.env): SuitePass {
  const asked = env.ASSOPAY_SUITE_PASS ?? "full";
  const pass = SUITE_PASSES.find((known) => known === asked);
  if (pass === undefined)
    throw new Error(`ASSOPAY_SUITE_PASS must be one of ${SUITE_PASSES.join(", ")}, got "${asked}"`);
  return pass;
}
