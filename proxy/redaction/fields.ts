import { type Automaton, buildAutomaton, holdsWordWhere, wordBytes } from "../../core/secrets/automaton.js";
import {
  EXACT_SECRET_NAMES,
  FORM_SECRET_NAMES,
  isSecretName,
  type NamePlace,
  normalFieldName,
  SECRET_FIELD_NAMES,
} from "../../core/secrets/names.js";
import type { PairNames } from "../../core/secrets/pairs.js";
import { PII_FIELD_ENDINGS, type PiiKind, piiKind } from "./pii.js";

/** What a field's value is, judged by the field's name. */
export type FieldKind = "secret" | PiiKind | "plain";

/** How many distinct field names a classifier remembers. */
const CACHE_LIMIT = 10_000;

/** Tags of the names' automaton: a name only forms make secret after its lead (`?code=`), `bearer`, a listed name. */
export const FORM_TAG = 1;
export const BEARER_TAG = 2;
export const NAME_TAG = 3;

/**
 * The words read in any case: the listed names, `bearer` (a credential may follow), and `?code=`,
 * `&state=` … (OAuth's secrets in a URL or a form). Blanks, `-` and `_` are skipped (`Mot de passe`,
 * `access-token`). Skipping them inside the last two finds a few spellings more than their own patterns
 * do (`bea-rer`): a text holding one is looked at more closely. Its steps on the `flagged` bytes carry
 * the automaton's flag (the body scan's, `scan.ts`: the bytes it looks at in any case).
 */
function namesAutomaton(names: readonly string[], flagged: readonly number[]): Automaton {
  const key = `${names.join()} ${flagged.join()}`;
  const built =
    BUILT.get(key) ??
    buildAutomaton(
      [
        ...names.map((name) => ({ bytes: wordBytes(name), tag: NAME_TAG })),
        ...["?", "&", "#"].flatMap((lead) =>
          FORM_SECRET_NAMES.map((name) => ({ bytes: wordBytes(`${lead}${name}=`), tag: FORM_TAG })),
        ),
        { bytes: wordBytes("bearer"), tag: BEARER_TAG },
      ],
      { foldCase: true, skip: [0x20, 0x2d, 0x5f], flagged },
    );
  BUILT.set(key, built);
  return built;
}

/** The automata built so far, by their names and flagged bytes: each classifier of the same lists shares them. */
const BUILT = new Map<string, Automaton>();

/**
 * Classifies field names (JSON keys, form and query names), remembering its answers: a recorder meets
 * the same few hundred names again and again. It also gives the fast paths their key filter, computed
 * from the same lists, so that whatever it calls a secret (or personal data) the filter finds.
 */
export class FieldClassifier implements PairNames {
  private readonly cache = new Map<string, FieldKind>();
  private readonly secretEndings: readonly string[];
  /** The filter's names, without and with personal data (lower case, without `_` or `-`). */
  private readonly words: { readonly secrets: readonly string[]; readonly pii: readonly string[] };
  /** The names' automata, by personal data and flagged bytes, built when first asked for. */
  private readonly automata: (Automaton | undefined)[] = [];

  /**
   * `secretNames`: the endings of secret field names (normalised, see `SECRET_FIELD_NAMES`); tests pass a
   * longer list to show that a name added to it is covered everywhere.
   */
  constructor(secretNames: readonly string[] = SECRET_FIELD_NAMES) {
    const names = secretNames.map(normalFieldName);
    this.secretEndings = names;
    const secretWords = [...names, ...EXACT_SECRET_NAMES];
    this.words = { secrets: secretWords, pii: [...secretWords, ...Object.keys(PII_FIELD_ENDINGS)] };
  }

  kind(name: string): FieldKind {
    const known = this.cache.get(name);
    if (known !== undefined) return known;
    const secret = isSecretName(name, "field", this.secretEndings);
    const kind: FieldKind = secret ? "secret" : (piiKind(name) ?? "plain");
    if (this.cache.size < CACHE_LIMIT) this.cache.set(name, kind);
    return kind;
  }

  /**
   * The kind of a query, fragment, form or multipart field: as {@link kind}, and a secret too when it is
   * one of the names OAuth carries there (`code`, `state`: `FORM_SECRET_NAMES`), which JSON keeps.
   */
  formKind(name: string): FieldKind {
    return FORM_SECRET_NAMES.includes(normalFieldName(name)) ? "secret" : this.kind(name);
  }

  /** Whether a value under `name` is a secret, read at `place` (the pairs' grammar asks: `pairs.ts`). */
  isSecret(name: string, place: NamePlace): boolean {
    return (place === "form" ? this.formKind(name) : this.kind(name)) === "secret";
  }

  /** Whether `text` may hold a secret's name, of a field or of a form (the pairs' filter). */
  mayName(text: string): boolean {
    return holdsWordWhere(this.nameAutomaton(false), text, (_, tag) => tag !== BEARER_TAG);
  }

  /** Whether values under `name` must be replaced: secrets always, personal data with `pii`. */
  sensitive(name: string, pii: boolean): boolean {
    const kind = this.kind(name);
    return kind === "secret" || (pii && kind !== "plain");
  }

  /**
   * Whether `text` may hold a key `sensitive` calls sensitive (a necessary condition, computed from the
   * lists): the fast paths look for keys only where it does, then ask `sensitive` about the whole key.
   */
  mayKey(text: string, pii: boolean): boolean {
    return holdsWordWhere(this.nameAutomaton(pii), text, (_, tag) => tag === NAME_TAG);
  }

  /**
   * The automaton that finds the lists' names (lower case, without `_` or `-`; personal ones too with
   * `pii`), built the first time it is asked for, then kept: one per classifier, kind, and with or
   * without `flagged` bytes (the body scan's, the same ones every time).
   */
  nameAutomaton(pii: boolean, flagged: readonly number[] = []): Automaton {
    const key = (pii ? 1 : 0) + (flagged.length > 0 ? 2 : 0);
    const built = this.automata[key] ?? namesAutomaton(this.words[pii ? "pii" : "secrets"], flagged);
    this.automata[key] = built;
    return built;
  }
}
