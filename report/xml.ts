/**
 * Text escaped for XML 1.0 attributes and content: `& < > "` become entities, and characters XML cannot
 * carry (control characters other than tab and newlines, lone surrogates, U+FFFE/U+FFFF) are dropped.
 */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
