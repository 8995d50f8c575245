import type { Automaton } from "../../core/secrets/automaton.js";
import type { NamePlace } from "../../core/secrets/names.js";
import type { PairNames } from "../../core/secrets/pairs.js";
import { PII_FIELD_ENDINGS, piiKind } from "./pii.js";
import {
  EXACT_SECRET_NAMES,
  FORM_SECRET_NAMES,
  NOT_SECRET_FIELD_NAMES,
  normalFieldName,
  SECRET_FIELD_NAMES,
} from "./secrets.js";

/** What a field's value is, judged by the field's name. */
export type FieldKind = "secret" | "name" | "email" | "phone" | "plain";

/** How many distinct field names a classifier remembers. */
const CACHE_LIMIT = 10_000;

/**
 * A listed name as a pattern that finds it in any spelling the lists accept: any case, `_`, `-` or a
 * blank anywhere ("Mot de passe").
 */
function spelled(name: string): string {
  return [...name].join("[-_ ]*");
}

/**
 * The names the filter needs: one that holds another listed name (`authorizationcode` holds
 * `authorization`, `totp` holds `otp`) is found through it, and every alternative costs a pass.
 */
function withoutContained(names: readonly string[]): string[] {
  const unique = [...new Set(names)];
  return unique.filter((name) => !unique.some((other) => other !== name && name.includes(other)));
}

/**
 * Classifies field names (JSON keys, form and query names), remembering its answers: a recorder meets
 * the same few hundred names again and again. It also gives the fast paths their key filter, computed
 * from the same lists, so that whatever it calls a secret (or personal data) the filter finds.
 */
export class FieldClassifier implements PairNames {
  private readonly cache = new Map<string, FieldKind>();
  private readonly secretEndings: readonly string[];
  private readonly notSecret: ReadonlySet<string>;
  private readonly exact: ReadonlySet<string>;
  private readonly formOnly: ReadonlySet<string>;
  /** Patterns of the filter, without and with personal data. */
  private readonly filters: { readonly secrets: string; readonly pii: string };
  /** The filter's names, without and with personal data (lower case, without `_` or `-`). */
  private readonly words: { readonly secrets: readonly string[]; readonly pii: readonly string[] };
  /** The filter as automata for the body scan (`scan.ts`), built when first asked for. */
  private readonly automata: { secrets?: Automaton; pii?: Automaton } = {};
  private secretFilter: RegExp | undefined;
  private formFilter: RegExp | undefined;

  /**
   * `secretNames`: the endings of secret field names (normalised, see `SECRET_FIELD_NAMES`); tests pass a
   * longer list to show that a name added to it is covered everywhere.
   */
  constructor(secretNames: readonly string[] = SECRET_FIELD_NAMES) {
    const names = secretNames.map(normalFieldName);
    this.secretEndings = names;
    this.notSecret = new Set(NOT_SECRET_FIELD_NAMES);
    this.exact = new Set(EXACT_SECRET_NAMES);
    this.formOnly = new Set(FORM_SECRET_NAMES);
    const secretWords = withoutContained([...names, ...EXACT_SECRET_NAMES]);
    const piiWords = Object.keys(PII_FIELD_ENDINGS);
    const secrets = secretWords.map(spelled).join("|");
    const pii = piiWords.map(spelled).join("|");
    this.filters = { secrets, pii: `${secrets}|${pii}` };
    this.words = { secrets: secretWords, pii: [...secretWords, ...piiWords] };
  }

  kind(name: string): FieldKind {
    const known = this.cache.get(name);
    if (known !== undefined) return known;
    const normal = normalFieldName(name);
    const secret =
      !this.notSecret.has(normal) &&
      (this.exact.has(normal) || this.secretEndings.some((end) => normal.endsWith(end)));
    const kind: FieldKind = secret ? "secret" : (piiKind(name) ?? "plain");
    if (this.cache.size < CACHE_LIMIT) this.cache.set(name, kind);
    return kind;
  }

  /**
   * The kind of a query, fragment, form or multipart field: as {@link kind}, and a secret too when it is
   * one of the names OAuth carries there (`code`, `state`: `FORM_SECRET_NAMES`), which JSON keeps.
   */
  formKind(name: string): FieldKind {
    return this.formOnly.has(normalFieldName(name)) ? "secret" : this.kind(name);
  }

  /** Whether a value under `name` is a secret, read at `place` (the pairs' grammar asks: `pairs.ts`). */
  isSecret(name: string, place: NamePlace): boolean {
    return (place === "form" ? this.formKind(name) : this.kind(name)) === "secret";
  }

  /** Whether `text` may hold a secret's name, of a field or of a form (the pairs' filter). */
  mayName(text: string): boolean {
    return this.maySecretName(text) || this.mayFormSecret(text);
  }

  /** Whether values under `name` must be replaced: secrets always, personal data with `pii`. */
  sensitive(name: string, pii: boolean): boolean {
    const kind = this.kind(name);
    return kind === "secret" || (pii && kind !== "plain");
  }

  /**
   * A fresh global, case-insensitive pattern that matches inside every field name `sensitive` may call
   * sensitive (a necessary condition, computed from the lists): the fast paths look for keys only where
   * it matches, then ask `sensitive` about the whole key.
   */
  keyFilter(pii: boolean): RegExp {
    return new RegExp(pii ? this.filters.pii : this.filters.secrets, "gi");
  }

  /**
   * Whether `text` may hold a secret's name (the key filter's test, on a pattern made once and kept: it
   * holds no state between calls). Free text is looked at for `name=value` pairs only where it may.
   */
  maySecretName(text: string): boolean {
    this.secretFilter ??= new RegExp(this.filters.secrets, "i");
    return this.secretFilter.test(text);
  }

  /**
   * Whether `text` may hold a pair of a name secret only in a URL or a form (`?code=`, `&state=`,
   * `#auth=`: `FORM_SECRET_NAMES`), which `maySecretName` does not look for.
   */
  mayFormSecret(text: string): boolean {
    this.formFilter ??= new RegExp(`[?&#](?:${[...this.formOnly].join("|")})=`, "i");
    return this.formFilter.test(text);
  }

  /**
   * The automaton the body scan (`scan.ts`) finds the key filter's names with, built by `build` from the
   * filter's names (lower case, without `_` or `-`; personal ones too with `pii`) the first time it is
   * asked for, then kept: one per classifier and kind. `build` must be the same function every time.
   */
  nameAutomaton(pii: boolean, build: (names: readonly string[]) => Automaton): Automaton {
    const which = pii ? "pii" : "secrets";
    const built = this.automata[which] ?? build(this.words[which]);
    this.automata[which] = built;
    return built;
  }
}
