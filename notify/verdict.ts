import type { Finding } from "../core/finding.js";

/** What `assopay notify` found: one finding per case of the battery, and what the failures say together. */
export interface NotifyReport {
  readonly to: string;
  readonly passed: boolean;
  readonly cases: readonly Finding[];
  /** What the failures together say ("it verifies a re-serialisation" …). */
  readonly diagnosis: readonly string[];
}
