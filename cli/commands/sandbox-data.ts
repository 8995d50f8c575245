import { writeFileSync } from "node:fs";
import type { Writable } from "node:stream";
import { AssopayError } from "../../core/errors.js";
import { loadCassette } from "../../proxy/index.js";
import { buildSandboxData } from "../../sandbox/data/build-data.js";
import { type CheckedDataFile, parseDataFile, readDataFile } from "../../sandbox/data/data-file.js";
import { dataFromRecording, type RecordedAnswer } from "../../sandbox/data/from-recording.js";
import type { SandboxData } from "../../sandbox/data/model.js";
import { printDataFile } from "../../sandbox/data/print-data.js";
import { listFlag, type ParsedFlags, stringFlag } from "../flags.js";

/** `--data FILE`: the data it declares, checked (file:line, exit 2), or `undefined` without the flag. */
export function dataFlag(flags: ParsedFlags, seed: number): SandboxData | undefined {
  const file = stringFlag(flags, "data");
  return file === undefined ? undefined : buildSandboxData(readDataFile(file), seed);
}

/**
 * The sandbox's data from `--data FILE` or `--from-cassette FILE…` (one or the other), and `--print-data
 * PATH|-` written. `printed` is true when the data file was printed (the verb then stops there).
 */
export async function sandboxDataFlags(
  verb: string,
  flags: ParsedFlags,
  seed: number,
  stdout: Writable,
): Promise<{ data: SandboxData | undefined; printed: boolean }> {
  // `--from-cassette A.yaml B.yaml`: the files after the flag come as positionals.
  const cassettes = [...listFlag(flags, "from-cassette")];
  if (flags.positionals.length > 0) {
    if (cassettes.length === 0) {
      throw new AssopayError("usage", `assopay ${verb}: unexpected argument "${flags.positionals[0]}"`, {
        hint: `run 'assopay ${verb} --help'`,
      });
    }
    cassettes.push(...flags.positionals);
  }
  const dataFile = stringFlag(flags, "data");
  const printTo = stringFlag(flags, "print-data");
  if (cassettes.length > 0 && dataFile !== undefined) {
    throw new AssopayError("usage", `assopay ${verb}: give --data or --from-cassette, not both`, {
      hint: "print the recording's data with --print-data FILE, edit it, then run with --data FILE",
    });
  }
  let checked: CheckedDataFile | undefined;
  let text: string | undefined;
  if (cassettes.length > 0) {
    const answers: RecordedAnswer[] = [];
    for (const file of cassettes) {
      const cassette = await loadCassette(file);
      for (const { request, response } of cassette.interactions) {
        const body = response.body && "json" in response.body ? response.body.json : undefined;
        const requestText = request.body && "text" in request.body ? request.body.text : undefined;
        answers.push({
          method: request.method,
          path: request.path,
          status: response.status,
          body,
          ...(requestText === undefined ? {} : { requestText }),
        });
      }
    }
    text = printDataFile(dataFromRecording(answers), cassettes);
    checked = parseDataFile(text, `${cassettes.join(", ")} (the data derived from it)`);
  } else if (dataFile !== undefined) {
    checked = readDataFile(dataFile);
  }
  if (printTo !== undefined) {
    if (!checked) {
      throw new AssopayError("usage", `assopay ${verb}: --print-data needs --from-cassette or --data`, {
        hint: "for example --from-cassette session.yaml --print-data my-data.yaml",
      });
    }
    const out = text ?? printDataFile(checked.data, [checked.file]);
    if (printTo === "-") stdout.write(out);
    else writeFileSync(printTo, out);
    return { data: undefined, printed: true };
  }
  return { data: checked && buildSandboxData(checked, seed), printed: false };
}
