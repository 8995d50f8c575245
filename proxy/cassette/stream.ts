import { createDocumentSplitter } from "./documents.js";
import type { Cassette, CassetteHeader, LoadedInteraction } from "./format.js";
import { readLines } from "./read-lines.js";
import { createCassetteBuilder, readHeader } from "./reader.js";
import type { CassetteValidator } from "./schema.js";

/** Thrown by the line handler to stop reading once the header is read. */
const HEADER_READ = Symbol("header read");

/**
 * The header of a cassette file, checked as `loadCassette` checks it, read without reading further than
 * its first document. A missing file, a file that is not a cassette or a bad header is an `AssopayError`.
 *
 * @example
 * const header = await readCassetteHeader("recordings/crawl.yaml", createCassetteValidator());
 */
export async function readCassetteHeader(
  path: string,
  validator: CassetteValidator,
): Promise<CassetteHeader> {
  let header: CassetteHeader | undefined;
  const splitter = createDocumentSplitter((doc) => {
    header = readHeader(path, doc, validator);
    throw HEADER_READ;
  });
  try {
    await readLines(path, splitter.push);
    splitter.end();
  } catch (error) {
    if (error !== HEADER_READ) throw error;
  }
  return header ?? readHeader(path, undefined, validator);
}

/**
 * Reads and checks a cassette file as `loadCassette` does, handing each interaction to `onInteraction`
 * as soon as it is read and keeping none: the cassette returned has no interactions. A reader that keeps
 * only what it makes of each interaction (replay's index) then never holds the parsed cassette whole,
 * and each parsed document is garbage while it is still young.
 *
 * @example
 * const outline = await streamCassette("recordings/crawl.yaml", validator, (i) => index.add(i));
 */
export async function streamCassette(
  path: string,
  validator: CassetteValidator,
  onInteraction: (interaction: LoadedInteraction) => void,
): Promise<Cassette> {
  const builder = createCassetteBuilder(path, validator, onInteraction);
  const splitter = createDocumentSplitter(builder.document);
  await readLines(path, splitter.push);
  splitter.end();
  return builder.finish();
}
