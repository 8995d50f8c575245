import { type Stats, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { exportOpenApi } from "../../contracts/openapi/export.js";
import { formatOfFile, type OpenApiFormat, serializeOpenApi } from "../../contracts/openapi/serialize.js";
import { assertValidOpenApi } from "../../contracts/openapi/validate.js";
import { todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { mayReplace, type WriteIntent, writeOwnedFile } from "../../core/owned-file.js";
import { type Command, contractLoader } from "../command.js";
import { choiceFlag, dateFlag, parseFlags, stringFlag } from "../flags.js";

const HELP = `assopay openapi: export the contract as an OpenAPI 3.1 document

Usage: assopay openapi [--out FILE [--force]] [--format yaml|json] [--at YYYY-MM-DD] [--timeline FILE]

Writes every route of contracts/routes.yaml as an operation (parameters, bodies, responses, rights,
pagination), every JSON Schema as a component, the timeline as 'deprecated' plus x-assopay-timeline
extensions read at --at, and the notification types as webhooks with the x-ha-signature header. The
document is checked with @readme/openapi-parser before it is written.

Flags:
  --out FILE        where to write it (default: standard output). An existing FILE is overwritten only
                    if assopay wrote it (info.x-generated-by: "assopay openapi").
  --force           let --out replace any file
  --format FORMAT   yaml or json (default: from the extension of --out; yaml on standard output)
  --at YYYY-MM-DD   the date the timeline is read at (default: today)
  --timeline FILE   your own timeline file instead of contracts/timeline.yaml
  -h, --help        this text

Exit codes: 0 written, 2 bad usage, a file that assopay did not write, or a bad contract file.

Examples:
  assopay openapi --out openapi.yaml
  assopay openapi --at 2025-01-15 --format json > openapi-2025-01.json
  npx prism mock openapi.yaml
`;

function outputFormat(out: string | undefined, flag: string | undefined): OpenApiFormat {
  if (flag !== undefined) return choiceFlag("openapi", "format", flag, ["yaml", "json"] as const, "yaml");
  if (out === undefined) return "yaml";
  const format = formatOfFile(out);
  if (format === undefined) {
    throw new AssopayError(
      "usage",
      `assopay openapi: cannot tell the format of "${out}" from its extension`,
      {
        hint: "name it .yaml, .yml or .json, or pass --format yaml|json",
      },
    );
  }
  return format;
}

/**
 * Whether `--out` may be written: a folder is a usage error, a device or a pipe (/dev/stdout) is written
 * to and never read, and a regular file is replaced only if assopay wrote it (or with --force).
 */
function checkOut(out: string, intent: WriteIntent): void {
  let stats: Stats | undefined;
  try {
    stats = statSync(out, { throwIfNoEntry: false });
  } catch {
    return; // below a file, say: writing it says why it cannot be written
  }
  if (stats?.isDirectory()) {
    throw new AssopayError("usage", `assopay openapi: --out ${out} is a folder, not a file`, {
      hint: `name a file, for example --out ${join(out, "openapi.yaml")}`,
    });
  }
  if (stats && !stats.isFile()) return;
  mayReplace(out, {}, intent);
}

/** Writes the document; a folder that is missing or a path through a file is a usage error. */
function writeOut(out: string, text: string): void {
  try {
    writeOwnedFile(out, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? `the folder ${dirname(out)} does not exist`
        : code === "ENOTDIR"
          ? `a part of ${dirname(out)} is a file, not a folder`
          : (error as Error).message;
    throw new AssopayError("usage", `assopay openapi: cannot write --out ${out}: ${reason}`, {
      hint:
        code === "ENOENT"
          ? `create it first (mkdir -p ${dirname(out)}) or choose another --out`
          : "choose another --out",
      cause: error,
    });
  }
}

export const openapiCommand: Command = {
  name: "openapi",
  summary: "Export the contract as an OpenAPI 3.1 document (routes, schemas, timeline, webhooks)",
  help: HELP,
  async run(context) {
    const flags = parseFlags("openapi", context.argv, "out= format= at= timeline= force");
    const out = stringFlag(flags, "out");
    const format = outputFormat(out, stringFlag(flags, "format"));
    const at = dateFlag("openapi", stringFlag(flags, "at")) ?? todayIso();
    const timelineFile = stringFlag(flags, "timeline");
    const force = flags.values.force === true;
    const intent = { flag: "assopay openapi --out", what: "an OpenAPI document", force };
    if (out !== undefined) checkOut(out, intent);
    const contract = contractLoader(context)(timelineFile ? { timelineFile } : {});
    const document = exportOpenApi(contract, { at });
    await assertValidOpenApi(document);
    const text = serializeOpenApi(document, format);
    if (out === undefined) {
      context.stdout.write(text);
      return 0;
    }
    writeOut(out, text);
    context.stderr.write(
      `Wrote the OpenAPI 3.1 document (${Object.keys(document.paths).length} paths, timeline at ${at}) to ${out}\n`,
    );
    return 0;
  },
};
