import { emitDocument, YamlEmitter } from "../cassette/emit.js";
import type { Cassette } from "../cassette/format.js";
import { parseCassette } from "../cassette/reader.js";
import type { ProxyEventSink } from "../events.js";
import { createRedactor } from "../redaction/redact.js";
import type { JournalEntry } from "./journal-frame.js";
import { type DamageKeeper, damageFile } from "./journal-reader.js";
import { type InteractionSink, RecordingPipeline } from "./pipeline.js";

/** How the recorder redacted, as recovery is given it, and where redaction's problems go. */
export interface RedactionSettings {
  secretSalt: string | undefined;
  signatureKeys: readonly string[];
  /** Problems met while redacting an exchange (it is then left out, and said so). */
  onEvent: ProxyEventSink;
}

/**
 * The recorder's own pipeline, as recovery runs it: the same redactor (salt, PII setting, extra keys),
 * so a recovered exchange is written exactly as the recorder would have; per-exchange events are not
 * repeated (recovery says what it did in one line).
 */
export function recoveryPipeline(
  sink: InteractionSink,
  pii: boolean,
  options: RedactionSettings,
): RecordingPipeline {
  const quiet: ProxyEventSink = (event) => {
    if (event.kind !== "recorded" && event.kind !== "notification") options.onEvent(event);
  };
  return new RecordingPipeline(
    sink,
    createRedactor(options.secretSalt, pii, true),
    options.signatureKeys,
    quiet,
  );
}

/** A {@link damageFile} created only once there is damage to keep; `path()` says where, if it was. */
export function lazyDamageFile(path: string): DamageKeeper & {
  close(): Promise<void>;
  path(): string | undefined;
} {
  let file: Awaited<ReturnType<typeof damageFile>> | undefined;
  return {
    async keep(bytes: Buffer) {
      file ??= await damageFile(path);
      await file.keep(bytes);
    },
    async close() {
      await file?.close();
    },
    path: () => (file ? path : undefined),
  };
}

/**
 * `cassette` plus the journal's `entries` it lacks, redacted by the recorder's pipeline and read back
 * as cassette documents, all in memory (nothing is written): what a reader serves when it cannot fold
 * the journal into the file. Duplicate ids are dropped.
 */
export async function withJournalInMemory(
  cassette: Cassette,
  entries: readonly JournalEntry[],
  options: RedactionSettings,
): Promise<{ cassette: Cassette; added: number; duplicates: number }> {
  const ids = new Set(cassette.interactions.map((i) => i.id));
  const emitter = new YamlEmitter();
  const text: string[] = [emitDocument({ ...cassette.header })];
  let added = 0;
  const pipeline = recoveryPipeline(
    {
      append(interaction, given) {
        const id = given ?? 0;
        if (ids.has(id)) return id;
        ids.add(id);
        added++;
        const { recordedAt, request, response, notification } = interaction;
        const doc = emitter.pieces({ id, recordedAt, request, response, notification });
        text.push(
          typeof doc === "string"
            ? doc
            : doc.map((p) => (typeof p === "string" ? p : p.toString("utf8"))).join(""),
        );
        return id;
      },
    },
    cassette.header.redaction.pii,
    options,
  );
  const journaled = new Set<number>();
  let duplicates = 0;
  for (const { id, exchange } of entries) {
    if (journaled.has(id)) {
      duplicates++;
      continue;
    }
    journaled.add(id);
    pipeline.enqueue(exchange, id);
  }
  await pipeline.idle();
  const fromJournal = parseCassette(text.join(""), `${cassette.file}.journal (redacted in memory)`);
  return {
    cassette: Object.freeze({
      file: cassette.file,
      header: cassette.header,
      interactions: [...cassette.interactions, ...fromJournal.interactions],
      warnings: [...cassette.warnings, ...fromJournal.warnings],
    }),
    added,
    duplicates,
  };
}
