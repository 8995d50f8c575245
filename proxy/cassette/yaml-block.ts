/**
 * A value already written as the YAML the emitter would write for it, with its lines at `indent`: the
 * bytes that follow `key:` (a space and a scalar, or a newline and the block lines), newline-ended. The
 * emitter writes its parts as they are, never decoding them: this is how the recorder's fast paths
 * (`json-yaml.ts`, `raw-text.ts`) put bodies into a cassette without building their values.
 */
export class YamlBlock {
  /** The YAML, in the pieces it was made of (written one after the other, never joined). */
  readonly parts: readonly Buffer[];

  constructor(
    parts: Buffer | readonly Buffer[],
    readonly indent: number,
  ) {
    this.parts = Buffer.isBuffer(parts) ? [parts] : parts;
  }

  /** The YAML as one buffer (a copy when it has several parts). */
  get bytes(): Buffer {
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts);
  }

  /** The same value with its lines at another indent (every line is shifted alike). */
  shifted(indent: number): YamlBlock {
    if (indent === this.indent) return this;
    const text = this.bytes.toString("utf8");
    const moved = text.replaceAll(`\n${" ".repeat(this.indent)}`, `\n${" ".repeat(indent)}`);
    return new YamlBlock(Buffer.from(moved, "utf8"), indent);
  }
}
