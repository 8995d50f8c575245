/** Parses raw bytes as UTF-8 JSON, or says why they are not. */
export function parseJsonBuffer(bytes: Buffer): { ok: true; value: unknown } | { ok: false; why: string } {
  const text = bytes.toString("utf8");
  if (text.trim() === "") return { ok: false, why: "the body is empty" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, why: `the body is not JSON (${(error as Error).message})` };
  }
}
