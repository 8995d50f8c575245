/** What a secret format is: the type the table of `formats.ts` and `provider-formats.ts` share. */

/**
 * The origins of the shapes: secretlint's recommended preset, a provider's own documentation, a standard,
 * or the shape most tokens share (a prefix and a random body: `token-shape.ts`).
 */
export const FORMAT_ORIGINS = [
  "secretlint-preset-recommend",
  "provider-documentation",
  "standard",
  "token-shape",
] as const;
export type FormatOrigin = (typeof FORMAT_ORIGINS)[number];

/** One shape: `pattern` finds it (global); the secret is capture group `secret` (the whole match if 0). */
export interface SecretFormat {
  readonly id: string;
  readonly origin: FormatOrigin;
  readonly pattern: RegExp;
  readonly secret: number;
  /**
   * A further test of what `pattern` found (its group `secret` where it has one, a token's random body,
   * else the whole match); without it, every match is a secret.
   */
  readonly accept?: (secret: string) => boolean;
  /** A value the format's own example gives, for the tests (assembled, so no scanner flags the file). */
  readonly example: string;
}

/** `chars` repeated to exactly `n` characters: the body of a format's example. */
export const rep = (chars: string, n: number) => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);
