import { afterAll, beforeAll } from "vitest";
import { type Exchange, writeCassette } from "./cassettes.js";
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

/**
 * A cassette (`crawl.yaml`) of `exchanges` in a temporary folder for the tests of one `describe`: written before its first
 * test, removed after its last. Read `file` inside tests, not at collection time.
 */
export function cassetteFixture(exchanges: () => Exchange[]): {
  readonly file: string;
  readonly temp: TempDir;
} {
  let temp: TempDir | undefined;
  let file: string | undefined;
  beforeAll(async () => {
    temp = await tempDir();
    file = temp.file("crawl.yaml");
    await writeCassette(file, exchanges());
  });
  afterAll(async () => {
    await temp?.remove();
  });
  const written = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("cassetteFixture: read before its beforeAll ran");
    return value;
  };
  return {
    get file() {
      return written(file);
    },
    get temp() {
      return written(temp);
    },
  };
}
