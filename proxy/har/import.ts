import type { IncomingHttpHeaders } from "node:http";
import { AssopayError } from "../../core/errors.js";
import { contentCoding, decompress } from "../../core/http/coding.js";
import { readInputText } from "../../core/input-file.js";
import { compress } from "../cassette/body.js";
import { DocumentWriter, exists, newHeader, openCassette } from "../cassette/writer.js";
import type { CapturedExchange } from "../record/capture.js";
import { recoveryFeed } from "../record/recover.js";
import type { Har, HarEntry, HarNameValue } from "./format.js";

/** How a HAR file becomes a cassette. */
export interface HarImportOptions {
  /** The service's origin; entries to any other are left out (default: where most of the calls went). */
  upstream?: string;
  /** As `assopay record`: the salt of the placeholders, and whether payers' names become fakes. */
  secretSalt?: string;
  redactPii?: boolean;
  /** One line per thing to say (what was left out, an exchange that could not be redacted). */
  onNotice: (message: string) => void;
}

/** What an import did: entries kept, and those left out by why. */
export interface HarImport {
  upstream: string;
  imported: number;
  otherHosts: Map<string, number>;
  browserOwn: Map<string, number>;
  unanswered: number;
}

/** Sec-Fetch-Dest values of requests a page's code makes or a navigation: every other is the browser's fetching an asset. */
const CALLS = new Set(["empty", "document", "iframe", "frame"]);
/** Chromium's `_resourceType`s of assets, for HARs whose requests carry no Sec-Fetch-Dest. */
const ASSET_TYPES = new Set(["image", "stylesheet", "script", "font", "media", "manifest", "texttrack"]);

function header(headers: readonly HarNameValue[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name)?.value;
}

/**
 * Why an entry is the browser's own rather than the app's (an asset a page loads, a CORS preflight), by
 * what the browser itself says of it: its `Sec-Fetch-Dest` header, else Chromium's `_resourceType`.
 */
function browserOwn(entry: HarEntry): string | undefined {
  const { headers, method } = entry.request;
  const dest = header(headers, "sec-fetch-dest")?.toLowerCase();
  if (dest !== undefined && !CALLS.has(dest)) return dest;
  if (dest === undefined && entry._resourceType && ASSET_TYPES.has(entry._resourceType)) {
    return entry._resourceType;
  }
  if (method.toUpperCase() === "OPTIONS" && header(headers, "access-control-request-method") !== undefined) {
    return "preflight";
  }
  return undefined;
}

/** HAR headers as Node parses them: lower-case names, repeats joined (`set-cookie` a list), pseudo-headers dropped. */
function nodeHeaders(headers: readonly HarNameValue[]): IncomingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of headers) {
    const lower = name.toLowerCase();
    if (lower.startsWith(":")) continue;
    const known = out[lower];
    if (lower === "set-cookie") out[lower] = [...(known === undefined ? [] : [known].flat()), value];
    else out[lower] = known === undefined ? value : `${known}, ${value}`;
  }
  return out;
}

/**
 * The bytes of a body as they crossed the wire, for the recorder's pipeline to decode as it decodes any:
 * a HAR holds the content with its coding undone (`gzip` named in the headers all the same), so the
 * content is coded again; bytes that already decode (a tool that kept them coded) are taken as they are.
 */
async function wireBytes(content: Buffer, contentEncoding: string | undefined): Promise<Buffer> {
  const coding = contentCoding(contentEncoding);
  if (coding === undefined || content.length === 0) return content;
  const decodes = await decompress(content, coding).then(
    () => true,
    () => false,
  );
  return decodes ? content : compress(content, coding);
}

function textBytes(text: string | undefined, encoding: string | undefined): Buffer {
  if (text === undefined) return Buffer.alloc(0);
  return Buffer.from(text, encoding?.toLowerCase() === "base64" ? "base64" : "utf8");
}

function bad(file: string, message: string, line?: number): AssopayError {
  return new AssopayError("bad-input", `${file} is not a HAR file assopay can import: ${message}`, {
    location: { file, ...(line === undefined ? {} : { line }) },
    hint: "save the session as HAR 1.2 (devtools' Network panel: 'Save all as HAR', or your proxy's HAR export)",
  });
}

/** Reads a HAR file: JSON with `log.entries`, each with a request (method, absolute URL) and a response. */
export async function readHar(file: string): Promise<HarEntry[]> {
  const text = readInputText(file, "bad-input", "HAR file");
  let har: Har;
  try {
    har = JSON.parse(text) as Har;
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    const line = at === undefined ? undefined : text.slice(0, Number(at)).split("\n").length;
    throw bad(file, `it is not JSON (${(error as Error).message})`, line);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) throw bad(file, "it has no log.entries list");
  entries.forEach((entry, n) => {
    const request = entry?.request;
    if (
      typeof request?.method !== "string" ||
      typeof request.url !== "string" ||
      !URL.canParse(request.url)
    ) {
      throw bad(file, `entry ${n} has no request with a method and an absolute url`);
    }
    if (!Array.isArray(request.headers)) throw bad(file, `entry ${n}'s request has no headers list`);
  });
  return entries;
}

/** The origin most of the app's calls went to (assets and preflights aside): the service, unless told. */
function busiestOrigin(entries: readonly HarEntry[]): string | undefined {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    if (browserOwn(entry)) continue;
    const origin = new URL(entry.request.url).origin;
    counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** An entry as the recorder captures an exchange, bodies as they crossed the wire. */
async function captured(entry: HarEntry, origin: string): Promise<CapturedExchange> {
  const { request, response } = entry;
  const requestHeaders = nodeHeaders(request.headers);
  const responseHeaders = nodeHeaders(response.headers ?? []);
  const started = new Date(entry.startedDateTime);
  return {
    startedAt: Number.isNaN(started.getTime()) ? new Date(0) : started,
    method: request.method,
    url: request.url.slice(origin.length) || "/",
    requestHeaders,
    requestBody: await wireBytes(
      textBytes(request.postData?.text, request.postData?.encoding),
      header(request.headers, "content-encoding"),
    ),
    status: response.status,
    responseHeaders,
    responseBody: await wireBytes(
      textBytes(response.content?.text, response.content?.encoding),
      header(response.headers ?? [], "content-encoding"),
    ),
  };
}

/** `url`'s origin as written in it (`new URL` would lower-case it, and drop a default port). */
function writtenOrigin(url: string, origin: string): string | undefined {
  return url.toLowerCase().startsWith(origin.toLowerCase()) ? url.slice(0, origin.length) : undefined;
}

/**
 * Imports a HAR file into a new cassette: each entry of the service's origin that the app made (not an
 * asset or a preflight of the browser's own), answered, goes through the recorder's own pipeline
 * (`recoveryFeed`: the ruleset's scan, the redactor, the body encoder), so it is decoded and
 * redacted exactly as a recorded exchange, and keeps its date (`startedDateTime`) and, from a HAR
 * assopay exported, its id. What was left out is said in one line. `cassette` must not exist yet.
 */
export async function importHar(
  harFile: string,
  cassette: string,
  options: HarImportOptions,
): Promise<HarImport> {
  const entries = await readHar(harFile);
  const upstream = options.upstream ? new URL(options.upstream).origin : busiestOrigin(entries);
  if (upstream === undefined) {
    throw new AssopayError("usage", `${harFile} holds no call of an app's to import`, {
      location: { file: harFile },
      hint: "name the service with --upstream URL",
    });
  }
  if (await exists(cassette)) {
    throw new AssopayError("conflict", `the cassette ${cassette} already exists`, {
      location: { file: cassette },
      hint: "import into a new file: --cassette another.yaml",
    });
  }
  const result: HarImport = {
    upstream,
    imported: 0,
    otherHosts: new Map(),
    browserOwn: new Map(),
    unanswered: 0,
  };
  const kept: { entry: HarEntry; origin: string }[] = [];
  for (const entry of entries) {
    const url = new URL(entry.request.url);
    const own = browserOwn(entry);
    const origin = writtenOrigin(entry.request.url, upstream);
    if (url.origin !== upstream || origin === undefined) {
      result.otherHosts.set(url.host, (result.otherHosts.get(url.host) ?? 0) + 1);
    } else if (own) result.browserOwn.set(own, (result.browserOwn.get(own) ?? 0) + 1);
    else if (!(entry.response?.status > 0)) result.unanswered++;
    else kept.push({ entry, origin });
  }
  const ids = kept.map(({ entry }) => entry._assopayId);
  const ownIds =
    ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0) && new Set(ids).size === ids.length;
  const header = newHeader(
    upstream,
    { secretSalt: options.secretSalt, redactPii: options.redactPii ?? false },
    [],
    kept[0]?.entry.startedDateTime,
  );
  const open = await openCassette(cassette, "create", header);
  let failure: Error | undefined;
  try {
    const writer = new DocumentWriter(open.fd, 1, (error) => {
      failure = error;
    });
    const feed = recoveryFeed(writer, new Set(), header.redaction.pii, {
      secretSalt: options.secretSalt,
      signatureKeys: [],
      onEvent: (event) => options.onNotice(event.message),
    });
    for (const { entry, origin } of kept) {
      const exchange = await captured(entry, origin);
      if (entry._assopayNotification) exchange.notification = true;
      result.imported++;
      await feed.add(exchange, ownIds ? entry._assopayId : undefined);
    }
    await feed.idle();
    writer.flush();
  } finally {
    await open.close();
  }
  if (failure) {
    throw new AssopayError("bad-input", `writing ${cassette} failed: ${failure.message}`, {
      location: { file: cassette },
      hint: "free some disk space, remove the partial cassette and import again",
    });
  }
  options.onNotice(summary(harFile, cassette, entries.length, result));
  return result;
}

/**
 * The one line an import ends with: what was kept, and what was left out, by why (each kind with its
 * total and, for hosts and assets, its counts).
 */
function summary(harFile: string, cassette: string, total: number, result: HarImport): string {
  const out: string[] = [];
  for (const [counts, what] of [
    [result.otherHosts, "to other hosts"],
    [result.browserOwn, "the browser's own"],
  ] as const) {
    if (counts.size === 0) continue;
    const sum = [...counts.values()].reduce((a, b) => a + b, 0);
    out.push(`${sum} ${what} (${[...counts].map(([name, n]) => `${name} ${n}`).join(", ")})`);
  }
  if (result.unanswered > 0) out.push(`${result.unanswered} never answered`);
  return `imported ${result.imported} of ${total} entries of ${harFile} into ${cassette}, the service being ${result.upstream}${out.length > 0 ? `; left out ${out.join("; ")}` : ""}`;
}
