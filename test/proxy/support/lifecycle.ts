import { afterAll, beforeAll } from "vitest";
import { tempDir } from "./http.js";

type TempDir = Awaited<ReturnType<typeof tempDir>>;

/**
 * An upstream (started by `start`) and a temporary folder for the tests of one `describe`: started before
 * its first test, closed and removed after its last. Read them inside tests, not at collection time.
 */
export function upstreamAndTemp<U extends { close(): Promise<void> }>(
  start: () => Promise<U>,
): { readonly upstream: U; readonly temp: TempDir } {
  let upstream: U | undefined;
  let temp: TempDir | undefined;
  beforeAll(async () => {
    upstream = await start();
    temp = await tempDir();
  });
  afterAll(async () => {
    await upstream?.close();
    await temp?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("upstreamAndTemp: read before its beforeAll ran");
    return value;
  };
  return {
    get upstream() {
      return started(upstream);
    },
    get temp() {
      return started(temp);
    },
  };
}
