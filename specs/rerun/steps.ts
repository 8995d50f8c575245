import { basename } from "node:path";
import type { Contract, RouteMatch } from "../../contracts/index.js";
import { AssopayError } from "../../core/errors.js";
import { type LoadedInteraction, loadCassette } from "../../proxy/index.js";

/** One recorded request to send again, with what the contract knows of its route. */
export interface RerunStep {
  /** Position in the whole rerun (0-based), the key of every value learnt from its answers. */
  index: number;
  /** `cassette/<file>#<id> GET /v5/…`: the finding's id. */
  id: string;
  interaction: LoadedInteraction;
  /** The contract's route for the recorded method and path, when it has one. */
  match: RouteMatch | undefined;
}

/** The recorded response's body as JSON, `undefined` when it is not JSON. */
export function recordedJson(step: RerunStep): unknown {
  const body = step.interaction.response.body;
  return body && "json" in body ? body.json : undefined;
}

/**
 * Reads the cassettes with the project's own loader (a file that is not a cassette is an `AssopayError`
 * with its file and line, exit 2) and lists their requests in order. Notification documents are left
 * out: the service sent those requests, not the client. Cassettes holding no client request at all are
 * an `AssopayError` too: a rerun of nothing would pass without judging anything. `notes` are what was
 * left out: the cassette reader's warnings (documents cut short) and the notification documents.
 */
export async function loadSteps(files: readonly string[], contract: Contract) {
  const steps: RerunStep[] = [];
  const notes: string[] = [];
  // Each file's label: its name, or the path as given when two files share a name.
  const names = files.map((file) => basename(file));
  const labels = files.map((file, i) => (names.filter((n) => n === names[i]).length > 1 ? file : names[i]));
  for (const [i, file] of files.entries()) {
    const cassette = await loadCassette(file);
    for (const warning of cassette.warnings)
      notes.push(`${warning.file}:${warning.line}: ${warning.message}`);
    let skipped = 0;
    for (const interaction of cassette.interactions) {
      if (interaction.notification) {
        skipped++;
        continue;
      }
      const { method, path } = interaction.request;
      steps.push({
        index: steps.length,
        id: `cassette/${labels[i] ?? file}#${interaction.id} ${method} ${path}`,
        interaction,
        match: contract.routes.match(method, path),
      });
    }
    if (skipped > 0)
      notes.push(`${file}: ${skipped} notification document(s) left out (the service sent them)`);
  }
  if (steps.length === 0) {
    throw new AssopayError("bad-input", "the cassettes hold no request a client made: nothing to re-send", {
      location: { file: files[0] ?? "" },
      hint: "record a session with 'assopay record' and run your client through it",
    });
  }
  return { steps, notes };
}
