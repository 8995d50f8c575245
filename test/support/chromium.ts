import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium, installed by scripts/ensure-chromium.sh (the project's pretest). */
const CHROMIUM = "/usr/bin/chromium";

/**
 * The flags every browser test starts chromium with: headless as root, and none of its own background
 * connections (this machine's closed network refuses them, many at a time).
 */
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Stops a browser test with the command that installs chromium, when it is missing. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: run 'bash scripts/ensure-chromium.sh' (npm test does it in pretest)`,
    );
  }
}

/** Starts the suite's chromium, headless, with the test's own flags after the common ones. */
export function launchChromium(extra: readonly string[] = []): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extra], headless: true });
}
