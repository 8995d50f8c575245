import { afterAll, beforeAll } from "vitest";
import { type Exchange, writeCassette } from "./cassettes.js";
import { tempDir } from "./http.js";

type TempDir = Awaited<ReturnType<typeof tempDir>>;

/**
 * What `setUp` makes before the first test of a `describe`, given to `tearDown` after its last. The
 * function returned reads it inside tests (not at collection time, when it does not exist yet).
 */
function suiteFixture<T>(
  name: string,
  setUp: () => Promise<T>,
  tearDown: (made: T) => Promise<void>,
): () => T {
  let made: { value: T } | undefined;
  beforeAll(async () => {
    made = { value: await setUp() };
  });
  afterAll(async () => {
    if (made) await tearDown(made.value);
  });
  return () => {
    if (!made) throw new Error(`${name}: read before its beforeAll ran`);
    return made.value;
  };
}

/**
 * An upstream (started by `start`) and a temporary folder for the tests of one `describe`: started before
 * its first test, closed and removed after its last. Read them inside tests, not at collection time.
 */
export function upstreamAndTemp<U extends { close(): Promise<void> }>(
  start: () => Promise<U>,
): { readonly upstream: U; readonly temp: TempDir } {
  const current = suiteFixture(
    "upstreamAndTemp",
    async () => ({ upstream: await start(), temp: await tempDir() }),
    async ({ upstream, temp }) => {
      await upstream.close();
      await temp.remove();
    },
  );
  return {
    get upstream() {
      return current().upstream;
    },
    get temp() {
      return current().temp;
    },
  };
}

/**
 * A cassette (`crawl.yaml`) of `exchanges` in a temporary folder for the tests of one `describe`: written
 * before its first test, removed after its last. Read `file` inside tests, not at collection time.
 */
export function cassetteFixture(exchanges: () => Exchange[]): {
  readonly file: string;
  readonly temp: TempDir;
} {
  const current = suiteFixture(
    "cassetteFixture",
    async () => {
      const temp = await tempDir();
      const file = temp.file("crawl.yaml");
      await writeCassette(file, exchanges());
      return { file, temp };
    },
    ({ temp }) => temp.remove(),
  );
  return {
    get file() {
      return current().file;
    },
    get temp() {
      return current().temp;
    },
  };
}
