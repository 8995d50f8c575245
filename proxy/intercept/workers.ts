import { createRequire } from "node:module";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { WorkerOptions } from "node:worker_threads";
import { runnableEntry } from "../../core/compiled.js";
import type { InterceptPlan } from "./hosts.js";

// The module's own object (what `require` returns and `import` mirrors), whose `Worker` can be replaced.
const threads = createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads");

/** The URL `import()` takes for a Worker's `filename`; undefined for a name Node itself refuses. */
function mainUrl(filename: string | URL): string | undefined {
  if (filename instanceof URL) return filename.href;
  return isAbsolute(filename) || /^\.\.?[\\/]/.test(filename)
    ? pathToFileURL(resolve(filename)).href
    : undefined;
}

const quote = JSON.stringify;

/** The code that imports `install` in a Worker: the compiled module, or the source through tsx's API. */
function importInstall(): string {
  const entry = runnableEntry(import.meta.url, "install");
  if (!entry.tsx) return `import(${quote(pathToFileURL(entry.file).href)})`;
  const api = quote(import.meta.resolve("tsx/esm/api"));
  return `import(${api}).then((tsx) => tsx.tsImport(${quote(entry.file)}, ${quote(import.meta.url)}))`;
}

/**
 * Node 20 runs no `--import` preload in a `worker_threads` Worker, so a Worker's fetch, `https.get` or
 * `tls.connect` would reach a named host untouched. This replaces `Worker` with one whose thread first
 * installs the same interception, then runs the application's script (`import()` of its file, or its
 * `eval` code). If the install fails there, the Worker fails with that error before the script runs:
 * never a Worker without interception. Returns the function that puts the original back.
 */
export function interceptWorkers(plan: InterceptPlan): () => void {
  const Original = threads.Worker;
  let install: string | undefined;
  const bootstrap = (filename: string | URL, options: WorkerOptions): [string | URL, WorkerOptions] => {
    const main = options.eval ? undefined : mainUrl(filename);
    if (!options.eval && main === undefined) return [filename, options];
    install ??= importInstall();
    const settings = quote({ hosts: [...plan.hosts], target: plan.target.href });
    const script = options.eval ? `(0, eval)(${quote(String(filename))})` : `import(${quote(main)})`;
    const code = `${install}.then((m) => { m.installIntercept(${settings}); return ${script}; });`;
    return [code, { ...options, eval: true }];
  };
  class InterceptedWorker extends Original {
    constructor(filename: string | URL, options: WorkerOptions = {}) {
      super(...bootstrap(filename, options));
    }
  }
  threads.Worker = InterceptedWorker;
  return () => {
    if (threads.Worker === InterceptedWorker) threads.Worker = Original;
  };
}
