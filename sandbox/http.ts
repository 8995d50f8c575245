import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../core/http/body.js";

/** The largest request body the sandbox reads. */
export const MAX_BODY_BYTES = 1_048_576;

/** One request and its response, with the URL already split. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** The raw path, still percent-encoded. */
  pathname: string;
  query: URLSearchParams;
  /** Reads the whole body (at most `MAX_BODY_BYTES`); `undefined` when it is too large. */
  body(): Promise<Buffer | undefined>;
}

export function createExchange(req: IncomingMessage, res: ServerResponse): Exchange {
  let target = req.url ?? "/";
  if (/^https?:\/\//i.test(target)) {
    // absolute-form request target, as some proxies send it
    try {
      const absolute = new URL(target);
      target = `${absolute.pathname}${absolute.search}`;
    } catch {
      target = "/";
    }
  }
  const mark = target.indexOf("?");
  const pathname = mark === -1 ? target : target.slice(0, mark);
  let cached: Promise<Buffer | undefined> | undefined;
  return {
    req,
    res,
    method: (req.method ?? "GET").toUpperCase(),
    pathname: pathname.startsWith("/") ? pathname : `/${pathname}`,
    query: new URLSearchParams(mark === -1 ? "" : target.slice(mark + 1)),
    body() {
      cached ??= readBody(req, MAX_BODY_BYTES).then(
        (body) => (body.ok ? body.bytes : undefined),
        () => undefined,
      );
      return cached;
    },
  };
}

type Headers = Record<string, string>;

export function sendJson(ex: Exchange, status: number, body: unknown, headers: Headers = {}): void {
  sendText(ex, status, JSON.stringify(body), {
    "content-type": "application/json; charset=utf-8",
    ...headers,
  });
}

export function sendText(ex: Exchange, status: number, text: string | Buffer, headers: Headers): void {
  if (ex.res.headersSent) return;
  const body = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  ex.res.writeHead(status, {
    ...headers,
    "content-length": String(body.length),
    "cache-control": "no-store",
  });
  ex.res.end(ex.method === "HEAD" ? undefined : body);
}

export function sendHtml(ex: Exchange, status: number, html: string): void {
  sendText(ex, status, html, { "content-type": "text/html; charset=utf-8" });
}

export function redirect(ex: Exchange, location: string): void {
  sendText(ex, 303, "", { location });
}

/** The service's `{"errors":[{code, message}]}` body. */
export function sendErrors(
  ex: Exchange,
  status: number,
  code: string,
  message: string,
  headers: Headers = {},
) {
  sendJson(ex, status, { errors: [{ code, message }] }, headers);
}

/** `value`, or a 404 in the service's `errors` shape saying `message` when there is none. */
export function orNotFound<T>(ex: Exchange, value: T | undefined, message: string): T | undefined {
  if (value === undefined) sendErrors(ex, 404, "NotFound", message);
  return value;
}

/** The ASP.NET validation problem the service answers bad input with (400). */
export function sendValidation(ex: Exchange, errors: Record<string, string[]>): void {
  sendJson(ex, 400, {
    type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
    title: "One or more validation errors occurred.",
    status: 400,
    errors,
  });
}

/** One error of the service's envelope: `{"code": "Error", "message": "Code : CODE - message"}`. */
export interface ServiceError {
  code: string;
  message: string;
}

/** An error as the service words it (`refund-error-envelope-devdocs.json`): the code inside the message. */
export function serviceError(code: string, message: string): ServiceError {
  return { code: "Error", message: `Code : ${code} - ${message}` };
}

/** Answers `{"errors": [...]}`, the service's error envelope. */
export function sendServiceErrors(ex: Exchange, status: number, errors: readonly ServiceError[]): void {
  sendJson(ex, status, { errors });
}

/** The OAuth error body of the token endpoint. */
export function sendOAuthError(ex: Exchange, status: number, error: string, description: string): void {
  sendJson(ex, status, { error, error_description: description });
}

/** 404 with a problem body that also carries the service's `errors` list. */
export function sendNotFound(ex: Exchange, detail: string): void {
  sendJson(ex, 404, {
    type: "https://tools.ietf.org/html/rfc9110#section-15.5.5",
    title: "Not Found",
    status: 404,
    detail,
    errors: [{ code: "NotFound", message: detail }],
  });
}

/** Parses a JSON body; `undefined` body is answered with a 400 already. */
export async function readJson(ex: Exchange): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const raw = await ex.body();
  if (raw === undefined) {
    sendJson(ex, 413, {
      errors: [{ code: "PayloadTooLarge", message: `body over ${MAX_BODY_BYTES} bytes` }],
    });
    return { ok: false };
  }
  const text = raw.toString("utf8");
  if (text.trim() === "") {
    sendValidation(ex, { "": ["A non-empty request body is required."] });
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    sendValidation(ex, { $: [`The JSON value could not be read: ${(error as Error).message}`] });
    return { ok: false };
  }
}
