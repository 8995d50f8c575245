import { DEFAULT_MAX_DOCUMENT_BYTES, largestParsableDocument, runDrift } from "../../contracts/drift/run.js";
import { todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { driftReport } from "../../report/drift.js";
import { DEFAULT_REPORTER, parseReporter, REPORTER_CHOICE } from "../../report/index.js";
import { type Command, contractLoader } from "../command.js";
import { dateFlag, parseFlags, printReport, stringFlag, wholeFlag } from "../flags.js";

const HELP = `assopay drift: compare the contract with a provider's OpenAPI document

Usage: assopay drift --openapi FILE [--since OLD_FILE] [--at YYYY-MM-DD] [--reporter ${REPORTER_CHOICE}]
                     [--max-document-bytes BYTES]

Compares the contract (contracts/routes.yaml and the JSON Schemas, as 'assopay openapi' exports them at
--at) with an OpenAPI 3.0 or 3.1 document: operations, query parameters, answer fields, their types,
required and nullable, enumerations. With --since, compares the older document OLD_FILE with FILE
instead. Every difference is breaking for clients, additive, or known: contracts/divergences.yaml
(drift:) and contracts/left-out.yaml give the reasons, the timeline the dates. See docs/drift.md.

Flags:
  --openapi FILE    the provider's document (JSON or YAML)
  --since OLD_FILE  an older document: report what changed from it to FILE
  --at YYYY-MM-DD   the date the contract's timeline is read at (default: today)
  --reporter NAME   ${REPORTER_CHOICE} (default ${DEFAULT_REPORTER}), written to stdout
  --max-document-bytes BYTES
                    refuse a document larger than this, before reading it (default 16777216, 16 MiB);
                    at most what this process's heap can parse (its limit / 32: some 130 MB
                    under Node's default heap), else a usage error
  -h, --help        this text

Exit codes: 0 no breaking difference left unacknowledged, 1 one or more, 2 bad usage or a bad file.

Examples:
  assopay drift --openapi contracts/reference/openapi-v5.json
  assopay drift --openapi contracts/reference/openapi-v5.json \\
    --since contracts/reference/openapi-v5.2025-12-01.json --reporter junit > drift.xml
  assopay openapi --out contract.yaml && assopay drift --openapi contract.yaml
`;

export const driftCommand: Command = {
  name: "drift",
  summary: "Compare the contract (or an older document) with a provider's OpenAPI document",
  help: HELP,
  async run(context) {
    const flags = parseFlags("drift", context.argv, "openapi= since= at= reporter= max-document-bytes=");
    const reporter = parseReporter("drift", stringFlag(flags, "reporter"));
    const openapi = stringFlag(flags, "openapi");
    if (openapi === undefined) {
      throw new AssopayError("usage", "assopay drift: --openapi FILE is required", {
        hint: "for example --openapi contracts/reference/openapi-v5.json (the provider's document, shipped with assopay)",
      });
    }
    const since = stringFlag(flags, "since");
    const at = dateFlag("drift", stringFlag(flags, "at")) ?? todayIso();
    const maxDocumentBytes =
      wholeFlag(flags, "max-document-bytes", { example: DEFAULT_MAX_DOCUMENT_BYTES * 2 }) ??
      DEFAULT_MAX_DOCUMENT_BYTES;
    const largest = largestParsableDocument();
    if (maxDocumentBytes > largest) {
      throw new AssopayError(
        "usage",
        `assopay drift: --max-document-bytes ${maxDocumentBytes} is more than this process can parse (${largest} bytes: a document takes about 20 bytes of heap per byte)`,
        {
          hint: `give at most ${largest}, or give Node a larger heap: NODE_OPTIONS=--max-old-space-size=${Math.ceil((maxDocumentBytes * 32) / 1024 / 1024)}`,
        },
      );
    }
    const result = runDrift(contractLoader(context)(), {
      openapi,
      at,
      maxDocumentBytes,
      ...(since ? { since } : {}),
    });
    return printReport(context, driftReport(result), reporter, { drift: { ...result, at } });
  },
};
