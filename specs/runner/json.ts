/** Parses text as JSON, or says why it is not. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; why: string } {
  if (text.trim() === "") return { ok: false, why: "the body is empty" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, why: `the body is not JSON (${(error as Error).message})` };
  }
}

/** Parses raw bytes as UTF-8 JSON, or says why they are not. */
export const parseJsonBuffer = (bytes: Buffer) => parseJsonText(bytes.toString("utf8"));
