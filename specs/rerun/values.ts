/**
 * Values the target must give back in its own words: ids, access and refresh tokens. Each value a
 * recorded response held at an id-like place is remembered with that place (step, JSON path, and for a
 * URL the segment of its path); a later recorded request naming the value gets instead what the
 * target's own response held at the same place.
 */

/** A JSON path: keys and indices from the body's root. */
export type JsonPath = readonly (string | number)[];

interface Place {
  step: number;
  path: JsonPath;
  /** For a URL, the index of the path segment that held the value. */
  segment?: number;
}

export type Resolved = { ok: true; value: string } | { ok: false; reason: string };

/** Keys whose values are identifiers or credentials the target issues. */
const ID_KEY = /^(id|.+Id|.+_id|access_token|refresh_token|continuationToken)$/;

/** URL path segments worth remembering: numbers and long opaque strings, never slugs or words. */
const OPAQUE_SEGMENT = /^(\d+|(?=.*\d)[A-Za-z0-9_-]{16,})$/;

/** True for a field or parameter name that holds an id or a token (`id`, `orderId`, `access_token`). */
export function isIdKey(key: string): boolean {
  return ID_KEY.test(key);
}

function segmentsOf(text: string): string[] | undefined {
  if (!/^https?:\/\//.test(text)) return undefined;
  try {
    return new URL(text).pathname.split("/").map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** Every id-like scalar of a body, with its path (URLs give their opaque segments). */
function* idLeaves(
  value: unknown,
  path: (string | number)[] = [],
): Generator<{ path: JsonPath; value: string; segment?: number }> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* idLeaves(item, [...path, i]);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const here = [...path, key];
    if ((typeof child === "string" || typeof child === "number") && isIdKey(key) && String(child) !== "") {
      yield { path: here, value: String(child) };
    } else if (typeof child === "string") {
      const segments = segmentsOf(child);
      for (const [i, segment] of (segments ?? []).entries())
        if (OPAQUE_SEGMENT.test(segment)) yield { path: here, value: segment, segment: i };
    } else {
      yield* idLeaves(child, here);
    }
  }
}

/** The value at a path of a body, or `undefined`. */
export function valueAt(body: unknown, path: JsonPath): unknown {
  let current = body;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** `data[3].id`. */
export function formatPath(path: JsonPath): string {
  return path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("");
}

/** The values learnt in one rerun; `describe` names a step in the reasons it gives. */
export function createLearntValues(describe: (step: number) => string = (step) => `step ${step + 1}`) {
  const places = new Map<string, Place[]>();
  const answers = new Map<number, unknown>();

  const read = (place: Place): string | undefined => {
    if (!answers.has(place.step)) return undefined;
    const found = valueAt(answers.get(place.step), place.path);
    if (place.segment === undefined) {
      return typeof found === "string" || typeof found === "number" ? String(found) : undefined;
    }
    return typeof found === "string" ? segmentsOf(found)?.[place.segment] : undefined;
  };

  return {
    /** Remembers the id-like values of a recorded response body. */
    learn(step: number, recorded: unknown): void {
      for (const leaf of idLeaves(recorded)) {
        const list = places.get(leaf.value) ?? [];
        list.push({
          step,
          path: leaf.path,
          ...(leaf.segment === undefined ? {} : { segment: leaf.segment }),
        });
        places.set(leaf.value, list);
      }
    },
    /** Keeps the target's answer to a step (its parsed body), to read values from. */
    answer(step: number, body: unknown): void {
      answers.set(step, body);
    },
    /** True when a recorded response held this value at an id-like place. */
    knows: (recorded: string): boolean => places.has(recorded),
    /**
     * What the target gave at the place the recording held `recorded`, the latest place first;
     * `undefined` when no recorded response held it.
     */
    resolve(recorded: string): Resolved | undefined {
      const list = places.get(recorded);
      if (!list) return undefined;
      for (const place of [...list].reverse()) {
        const value = read(place);
        if (value !== undefined) return { ok: true, value };
      }
      const last = list[list.length - 1] as Place;
      return {
        ok: false,
        reason: `the recording took "${recorded}" from the answer to ${describe(last.step)} (${formatPath(last.path)}), and the target's answer holds nothing there`,
      };
    },
  };
}

export type LearntValues = ReturnType<typeof createLearntValues>;
