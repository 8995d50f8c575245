import { stat, unlink } from "node:fs/promises";
import { AssopayError } from "../../core/errors.js";
import type { CassetteHeader } from "../cassette/format.js";
import type { CassetteLock } from "../cassette/lock.js";
import { loadCassette } from "../cassette/reader.js";
import { DocumentWriter, openCassette } from "../cassette/writer.js";
import type { ProxyEventSink } from "../events.js";
import { createRedactor } from "../redaction/redact.js";
import { JOURNAL_SUFFIX, readJournal } from "./journal.js";
import type { ResolvedRecorderOptions } from "./options.js";
import { type InteractionSink, RecordingPipeline } from "./pipeline.js";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Whether `file` has a journal left behind by a recorder that did not stop cleanly. */
export function hasJournal(file: string): Promise<boolean> {
  return exists(`${file}${JOURNAL_SUFFIX}`);
}

/**
 * Replays the journal of `file` (see `journal.ts`) into it: every journaled exchange whose id the file
 * does not hold yet is redacted and appended as the recorder would have; the others only teach the
 * redactor the secrets they carry. Then the journal is deleted. The caller holds the cassette's lock.
 * Returns how many exchanges were recovered.
 */
export async function recoverJournal(
  file: string,
  header: CassetteHeader,
  lock: CassetteLock,
  options: ResolvedRecorderOptions,
  onEvent: ProxyEventSink,
): Promise<number> {
  const journal = `${file}${JOURNAL_SUFFIX}`;
  const entries = readJournal(journal);
  if (entries.length === 0) {
    await unlink(journal);
    return 0;
  }
  const present = await exists(file);
  const cassette = present ? await loadCassette(file) : undefined;
  const maxId = (cassette?.interactions ?? []).reduce((max, i) => Math.max(max, i.id), 0);
  const pii = cassette ? cassette.header.redaction.pii : header.redaction.pii;
  // The lock stays the caller's: this file is closed without releasing it.
  const open = await openCassette(file, present ? "append" : "create", header, {
    lock: { path: lock.path, release: async () => undefined },
  });
  let recovered = 0;
  try {
    let failure: Error | undefined;
    const writer = new DocumentWriter(open.fd, maxId + 1, (error) => {
      failure = error;
    });
    const sink: InteractionSink = {
      append(interaction, given) {
        if (given !== undefined && given <= maxId) return given;
        recovered++;
        return writer.append(interaction, given);
      },
    };
    const quiet: ProxyEventSink = (event) => {
      if (event.kind !== "recorded" && event.kind !== "notification") onEvent(event);
    };
    const pipeline = new RecordingPipeline(
      sink,
      createRedactor(options.secretSalt, pii, true),
      options.signatureKeys,
      quiet,
    );
    for (const { meta, requestBody, responseBody } of entries) {
      pipeline.enqueueWire(meta, requestBody, responseBody);
    }
    await pipeline.idle();
    writer.flush();
    if (failure) {
      throw new AssopayError("bad-input", `recovering the journal failed: ${failure.message}`, {
        location: { file: journal },
        hint: "free some disk space and start again: the journal is kept until it is recovered",
      });
    }
  } finally {
    await open.close();
  }
  await unlink(journal);
  return recovered;
}
