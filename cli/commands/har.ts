import { writeFile } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import { cassetteToHar } from "../../proxy/har/export.js";
import { importHar } from "../../proxy/har/import.js";
import { loadCassette } from "../../proxy/index.js";
import type { Command, CommandContext } from "../command.js";
import { parseFlags, required, stringFlag } from "../flags.js";

const HELP = `assopay har: a HAR file into a cassette, or a cassette into a HAR file

Usage: assopay har import FILE.har --cassette PATH [--upstream URL] [--redact-pii]
       assopay har export --cassette PATH [--out FILE.har]

HAR 1.2 is what a browser's devtools, HTTP Toolkit, mitmproxy, Postman and Insomnia save a session as.

import: writes a new cassette from the HAR's entries, through the recorder's own pipeline: secrets
replaced by the same placeholders as 'assopay record' writes, bodies decoded as it decodes them (base64
content, gzip/deflate/br named in the headers), each entry's date kept. Only the service's entries are
imported: entries to other hosts, and the browser's own requests (assets a page loads, by their
Sec-Fetch-Dest or devtools' resource type; CORS preflights), are left out, and one line says how many
and why. The cassette then works with replay, lint, verify --cassette, sandbox --from-cassette and
gate --cassette.
  FILE.har              the HAR file to import
  --cassette PATH       the cassette to write (a new file: an existing one is refused)
  --upstream URL        the service's origin (default: the origin most of the app's calls went to)
  --redact-pii          replace payer and user names and e-mails with stable fakes, as record does

export: writes the cassette as HAR 1.2 (to stdout, or --out), for HAR viewers: one entry per
interaction, secrets still their placeholders, each entry's interaction id kept (_assopayId), so that
importing it again gives the same interactions.
  --cassette PATH       the cassette to export
  --out FILE.har        where to write it (default: standard output; an existing file is refused)

  -h, --help            this text

Environment:
  ASSOPAY_CASSETTE_SALT  a salt for the secret placeholders, as for record (replay needs the same one)

Exit codes: 0 done, 2 bad usage, a file that is not HAR or not a cassette, or an output that exists.

Examples:
  assopay har import checkout-session.har --cassette recordings/checkout.yaml
  assopay har import session.har --cassette s.yaml --upstream https://api.helloasso-sandbox.com
  assopay har export --cassette recordings/pagination-crawl.yaml --out crawl.har
`;

async function runImport(context: CommandContext, argv: readonly string[]): Promise<number> {
  const flags = parseFlags("har", argv, "cassette= upstream= redact-pii", true);
  const [file, extra] = flags.positionals;
  if (extra !== undefined) {
    throw new AssopayError("usage", `assopay har import: one HAR file at a time, got "${extra}" too`, {
      hint: "import each into its own cassette",
    });
  }
  const har = required("har", "the HAR file", file, "assopay har import session.har --cassette session.yaml");
  const cassette = required("har", "--cassette", stringFlag(flags, "cassette"), "--cassette session.yaml");
  const upstream = stringFlag(flags, "upstream");
  if (upstream !== undefined && !URL.canParse(upstream)) {
    throw new AssopayError("usage", `assopay har import: --upstream "${upstream}" is not a URL`, {
      hint: "for example --upstream https://api.helloasso.com",
    });
  }
  await importHar(har, cassette, {
    ...(upstream === undefined ? {} : { upstream }),
    redactPii: flags.values["redact-pii"] === true,
    ...(context.env.ASSOPAY_CASSETTE_SALT ? { secretSalt: context.env.ASSOPAY_CASSETTE_SALT } : {}),
    onNotice: (message) => context.stdout.write(`${message}\n`),
  });
  return 0;
}

async function runExport(context: CommandContext, argv: readonly string[]): Promise<number> {
  const flags = parseFlags("har", argv, "cassette= out=");
  const file = required(
    "har",
    "--cassette",
    stringFlag(flags, "cassette"),
    "assopay har export --cassette session.yaml",
  );
  const out = stringFlag(flags, "out");
  const text = `${JSON.stringify(cassetteToHar(await loadCassette(file)), null, 2)}\n`;
  if (out === undefined) {
    context.stdout.write(text);
    return 0;
  }
  await writeFile(out, text, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
    throw new AssopayError(
      error.code === "EEXIST" ? "conflict" : "bad-input",
      `cannot write ${out}: ${error.code === "EEXIST" ? "it exists" : error.message}`,
      { location: { file: out }, hint: "choose another --out, or remove the file first" },
    );
  });
  return 0;
}

export const harCommand: Command = {
  name: "har",
  summary: "Import a HAR file into a cassette, or export a cassette as HAR 1.2",
  help: HELP,
  async run(context) {
    const [action, ...rest] = context.argv;
    switch (action) {
      case "import":
        return runImport(context, rest);
      case "export":
        return runExport(context, rest);
      default:
        throw new AssopayError(
          "usage",
          action === undefined
            ? "assopay har: say import or export"
            : `assopay har: unknown action "${action}"`,
          { hint: "assopay har import FILE.har --cassette PATH, or assopay har export --cassette PATH" },
        );
    }
  },
};
