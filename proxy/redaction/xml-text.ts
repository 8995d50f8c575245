/**
 * Redaction of XML bodies (SOAP, `application/xml`, `text/xml`): the text of every element named like a
 * secret (`<password>`, `<ns:client_secret>`, CDATA included) and the value of every attribute so named
 * become placeholders; personal elements fakes with `--redact-pii`; the rest is scrubbed as text.
 */
import { fieldValue, isSensitiveField, type Redactor, scrubText } from "./redactor.js";

/** An element holding text only (or CDATA): its qualified name, local name, attributes and content. */
const ELEMENT = /<((?:[\w.-]+:)?([\w.-]+))(\s[^<>]*)?>((?:[^<]|<!\[CDATA\[[\s\S]*?\]\]>)*)<\/\1\s*>/g;

/** An attribute: its local name and value, quoted either way. */
const ATTRIBUTE = /(\s(?:[\w.-]+:)?([\w.-]+)\s*=\s*)(?:"([^"]*)"|'([^']*)')/g;

/** Whether a body's type or first character says it is XML. */
export function isXml(text: string, contentType: string | undefined): boolean {
  if (contentType !== undefined && /^\s*[\w.+-]+\/(?:[\w.+-]+\+)?xml\b/i.test(contentType)) return true;
  return contentType === undefined && text.trimStart().startsWith("<?xml");
}

function attributes(text: string, r: Redactor): string {
  return text.replace(ATTRIBUTE, (found, head: string, name: string, double?: string, single?: string) => {
    if (!isSensitiveField(name, r)) return found;
    const quote = double === undefined ? "'" : '"';
    return `${head}${quote}${fieldValue(name, double ?? single ?? "", r)}${quote}`;
  });
}

/**
 * XML text as it may be written (see the module).
 *
 * @example redactXmlText("<a><password>pw</password></a>", r) // "<a><password><secret:…></password></a>"
 */
export function redactXmlText(text: string, r: Redactor): string {
  const out = text.replace(
    ELEMENT,
    (found, qualified: string, local: string, attrs: string | undefined, content: string) => {
      const head = attrs === undefined ? "" : attributes(attrs, r);
      if (!isSensitiveField(local, r))
        return attrs === undefined ? found : `<${qualified}${head}>${content}</${qualified}>`;
      const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(content);
      const value = cdata
        ? `<![CDATA[${fieldValue(local, cdata[1] ?? "", r)}]]>`
        : fieldValue(local, content, r);
      return `<${qualified}${head}>${value}</${qualified}>`;
    },
  );
  return scrubText(
    out.replace(/<[\w.:-]+(\s[^<>]*?)\/?>/g, (tag) => attributes(tag, r)),
    r,
  );
}
