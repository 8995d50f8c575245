import { isFormType, isJsonType } from "../cassette/body.js";
import { redactJsonText } from "./json-text.js";
import { type Redactor, scrubText } from "./redactor.js";
import { redactFormText } from "./url.js";
import { isXml, redactXmlText } from "./xml-text.js";

/**
 * `name = value` and `name: value` in a text that is neither form, JSON nor XML (an env dump, a config
 * file, a log): the value of a secret-named pair is replaced.
 */
const TEXT_PAIR = /(^|[\s;,{(])([A-Za-z_][\w.-]{0,100})([ \t]*[=:][ \t]*)([^\s"'<>;,&]+)/g;

function redactTextPairs(text: string, r: Redactor): string {
  if (!text.includes("=") && !text.includes(":")) return text;
  return text.replace(TEXT_PAIR, (found, before: string, name: string, sep: string, value: string) =>
    r.fields.kind(name) === "secret" ? `${before}${name}${sep}${r.secrets.redact(value, name)}` : found,
  );
}

/** A form body sent under another type: `name=value` pairs joined by `&`, no blanks. */
const FORM_LIKE = /^[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)*$/;

/**
 * A textual body as it may be written, judged by its type and then by its text: a form by name; JSON
 * by name or by its first character (JSON sent as `text/plain` is redacted as JSON); XML by its type or
 * its `<?xml` declaration, element by element (`xml-text.ts`); a text that reads
 * as a form (`a=1&token=…`) as a form; anything else scrubbed of secrets of a recognised shape and of
 * the secrets met so far.
 */
export function redactText(text: string, contentType: string | undefined, r: Redactor): string {
  if (isFormType(contentType)) return redactFormText(text, r);
  if (isJsonType(contentType)) return redactJsonText(text, r);
  if (isXml(text, contentType)) return redactXmlText(text, r);
  const first = text.trimStart().charAt(0);
  if (first === "{" || first === "[") return redactJsonText(text, r);
  if (text.length <= 64 * 1024 && FORM_LIKE.test(text)) return redactFormText(text, r);
  return scrubText(text, r);
}

/**
 * A whole textual body (not a part of a multipart one, whose file parts are the user's own data): as
 * `redactText`, and a plain text also rid of the values of secret-named pairs (an env dump, a config).
 */
export function redactTextBody(text: string, contentType: string | undefined, r: Redactor): string {
  return isPlain(text, contentType)
    ? scrubText(redactTextPairs(text, r), r)
    : redactText(text, contentType, r);
}

function isPlain(text: string, contentType: string | undefined): boolean {
  if (isFormType(contentType) || isJsonType(contentType) || isXml(text, contentType)) return false;
  const first = text.trimStart().charAt(0);
  return first !== "{" && first !== "[" && !(text.length <= 64 * 1024 && FORM_LIKE.test(text));
}
