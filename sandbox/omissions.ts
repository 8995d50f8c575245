/**
 * What a listing leaves out under the faults that always leave the same entries out (at every page size,
 * in either order, their totals counting only what they serve): the other listings still hold them, or
 * name them.
 */
import type { SandboxCore } from "./core.js";
import type { FormDef, OrderRecord } from "./data/model.js";
import { type Direction, type Sequence, START } from "./data/sequence.js";

/** What the entries of a listing are, from the contract's `entrySchema`. */
export type EntryKind = "list-entry" | "order" | "payment";

/**
 * The orders a fault leaves out of a listing: one in 13 of an organization's listings
 * (`organization-omits-entries`) or of a form's (`form-omits-entries`), one in 7 of the orders listings
 * (`orders-listing-omits-orders`) or of the items listings (`items-listing-omits-items`); `undefined`
 * when it leaves out none.
 */
function omissionOf(
  core: SandboxCore,
  form: FormDef | undefined,
  kind: EntryKind | undefined,
): ((record: OrderRecord) => boolean) | undefined {
  switch (core.fault) {
    case "organization-omits-entries":
      return form === undefined ? (record) => record.id % 13 === 0 : undefined;
    case "form-omits-entries":
      return form !== undefined ? (record) => record.id % 13 === 0 : undefined;
    case "orders-listing-omits-orders":
      return kind === "order" ? (record) => record.id % 7 === 0 : undefined;
    case "items-listing-omits-items":
      return kind === "list-entry" ? (record) => record.id % 7 === 0 : undefined;
    default:
      return undefined;
  }
}

/**
 * What a listing serves from `sequence`: all of it, but under the faults of `omissionOf`, which leave out
 * some orders at every page size and in either order and count only what they serve (the other listings
 * still have them, or name them).
 */
export function servedSequence(
  core: SandboxCore,
  form: FormDef | undefined,
  sequence: Sequence<OrderRecord>,
  kind?: EntryKind,
): Sequence<OrderRecord> {
  const omitted = omissionOf(core, form, kind);
  if (!omitted) return sequence;
  const page = (afterId: number, direction: Direction, size: number): OrderRecord[] => {
    const found: OrderRecord[] = [];
    for (let from = afterId; found.length < size; ) {
      const batch = sequence.page(from, direction, size);
      const last = batch.at(-1);
      if (!last) break;
      for (const record of batch) if (!omitted(record) && found.length < size) found.push(record);
      from = last.id;
    }
    return found;
  };
  const all = page(START.asc, "asc", sequence.total);
  return {
    total: all.length,
    page,
    slice: (offset, direction, size) => {
      if (offset === 0) return page(START[direction], direction, size);
      const before = page(START[direction], direction, offset).at(-1);
      return before && all.length > offset ? page(before.id, direction, size) : [];
    },
  };
}
