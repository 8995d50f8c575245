import { isFormType, isJsonType } from "../cassette/body.js";
import { isHtmlType, pageNamesSecret, redactHtmlText } from "./html-text.js";
import { redactJsonText } from "./json-text.js";
import { type Redactor, scrubText } from "./redactor.js";
import { isTableType, redactTableText, tableNamesSecret } from "./table-text.js";
import { redactFormText, redactUrl } from "./url.js";
import { isXml, redactXmlText } from "./xml-text.js";

/** A body that is one URL (absolute, or a path) and nothing else: its query is a URL's, not a form. */
const ONE_URL = /^(?:[a-z][\w+.-]*:\/\/|\/)[^\s]*$/i;

/** A form body sent under another type: `name=value` pairs joined by `&`, no blanks. */
const FORM_LIKE = /^[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)*$/;

/**
 * A textual body as it may be written, judged by its type, then by its text: JSON sent as `text/plain`
 * is redacted as JSON, `a=1&token=…` as a form, a lone URL as a URL (its query and fragment as a form's);
 * anything else is scrubbed (`scrubText`). A whole body and a multipart body's textual part are redacted
 * alike.
 */
export function redactText(text: string, contentType: string | undefined, r: Redactor): string {
  if (isFormType(contentType)) return redactFormText(text, r);
  if (isJsonType(contentType)) return redactJsonText(text, r);
  if (isXml(text, contentType)) return redactXmlText(text, r);
  if (isTableType(contentType)) return redactTableText(text, r);
  if (isHtmlType(contentType)) return redactHtmlText(text, r);
  const first = text.trimStart().charAt(0);
  if (first === "{" || first === "[") return redactJsonText(text, r);
  if (text.length <= 64 * 1024 && ONE_URL.test(text)) return redactUrl(text, r);
  if (text.length <= 64 * 1024 && FORM_LIKE.test(text)) return redactFormText(text, r);
  return scrubText(text, r);
}

/**
 * Whether a text body's structure names a secret its bytes alone do not show to the body scan (a table's
 * column headed "API Key", a page's element named `csrf_token`): such a body takes the general path
 * however large it is.
 */
export function structureNamesSecret(bytes: Buffer, contentType: string | undefined, r: Redactor): boolean {
  if (isTableType(contentType)) {
    const line = bytes.indexOf(0x0a);
    return tableNamesSecret(bytes.toString("utf8", 0, line < 0 ? bytes.length : line), r);
  }
  if (isHtmlType(contentType)) return pageNamesSecret(bytes.toString("utf8"), r);
  return false;
}
