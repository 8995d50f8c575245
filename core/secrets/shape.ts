/** What a secret format is: the type the table of `formats.ts` and `provider-formats.ts` share. */

/** The origins of the shapes: secretlint's recommended preset, a provider's own documentation, a standard. */
export const FORMAT_ORIGINS = ["secretlint-preset-recommend", "provider-documentation", "standard"] as const;
export type FormatOrigin = (typeof FORMAT_ORIGINS)[number];

/** One shape: `pattern` finds it (global); the secret is capture group `secret` (the whole match if 0). */
export interface SecretFormat {
  readonly id: string;
  readonly origin: FormatOrigin;
  readonly pattern: RegExp;
  readonly secret: number;
  /** A value the format's own example gives, for the tests (assembled, so no scanner flags the file). */
  readonly example: string;
}

/** `chars` repeated to exactly `n` characters: the body of a format's example. */
export const rep = (chars: string, n: number) => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);
