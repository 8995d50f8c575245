import type { TokenMint } from "../token-mint.js";

/**
 * Where a continuation token the gate handed out leads: which listing, which upstream page (by the
 * upstream's own token, `undefined` for the first page), how many entries of that page were already
 * served, and the index of the page it leads to.
 */
export interface Cursor {
  readonly listingKey: string;
  readonly upstreamToken: string | undefined;
  readonly skip: number;
  readonly pageIndex: number;
}

/** The tokens one layer issued. Every token is new; looking one up never consumes it. */
export interface CursorTable {
  issue(cursor: Cursor): string;
  find(token: string): Cursor | undefined;
}

export function createCursorTable(mint: TokenMint): CursorTable {
  const cursors = new Map<string, Cursor>();
  return {
    issue(cursor) {
      let token = mint();
      while (cursors.has(token)) token = mint();
      cursors.set(token, Object.freeze({ ...cursor }));
      return token;
    },
    find: (token) => cursors.get(token),
  };
}
