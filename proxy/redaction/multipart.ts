/**
 * Redaction of `multipart/form-data` bodies (stored as base64, since they may hold files): each part
 * named like a secret has its content replaced by a placeholder, each textual part is redacted as its
 * own type says (JSON, form, text), file parts of other types are kept as they came.
 */
import { isUtf8 } from "node:buffer";
import { formValue, type Redactor } from "./redactor.js";
import { redactText } from "./text-body.js";

const HEAD_END = Buffer.from("\r\n\r\n");

/** The boundary of a `multipart/*` content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return undefined;
  const found = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return found?.[1] ?? found?.[2];
}

function headerOf(head: string, name: string): string | undefined {
  const found = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head);
  return found?.[1]?.trim();
}

/** One part: its head (headers) kept, its content redacted by its name and type. */
function redactPart(part: Buffer, r: Redactor): Buffer {
  const headEnd = part.indexOf(HEAD_END);
  if (headEnd < 0) return part;
  const head = part.toString("latin1", 0, headEnd);
  const content = part.subarray(headEnd + HEAD_END.length);
  const disposition = headerOf(head, "content-disposition") ?? "";
  const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? /\bname=([^;\s]+)/i.exec(disposition)?.[1];
  const type = headerOf(head, "content-type");
  const isFile = /\bfilename\*?=/i.test(disposition);
  const textual =
    isUtf8(content) &&
    (!isFile ||
      type === undefined ||
      /^(text\/|application\/(json|x-www-form-urlencoded)|.*\+json)/i.test(type));
  if (!textual) return part;
  const text = content.toString("utf8");
  const named = name !== undefined && !isFile && r.fields.formKind(name) !== "plain";
  const redacted = named ? formValue(name, text, r) : redactText(text, type, r);
  if (redacted === text) return part;
  return Buffer.concat([part.subarray(0, headEnd + HEAD_END.length), Buffer.from(redacted, "utf8")]);
}

/**
 * The bytes of a multipart body with every part redacted (see the module), or the bytes as they were
 * when they are not multipart with that boundary.
 */
export function redactMultipart(bytes: Buffer, boundary: string, r: Redactor): Buffer {
  const delimiter = Buffer.from(`--${boundary}`, "latin1");
  const out: Buffer[] = [];
  let at = bytes.indexOf(delimiter);
  if (at < 0) return bytes;
  out.push(bytes.subarray(0, at));
  while (at >= 0) {
    const next = bytes.indexOf(delimiter, at + delimiter.length);
    if (next < 0) {
      out.push(bytes.subarray(at));
      break;
    }
    // A part sits between `--boundary\r\n` and `\r\n` before the next delimiter.
    const start = at + delimiter.length + 2;
    const end = next - 2;
    out.push(bytes.subarray(at, start));
    out.push(
      end > start ? redactPart(bytes.subarray(start, end), r) : bytes.subarray(start, Math.max(start, end)),
    );
    out.push(bytes.subarray(Math.max(start, end), next));
    at = next;
  }
  return Buffer.concat(out);
}
