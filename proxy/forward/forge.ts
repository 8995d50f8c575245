import { createRequire } from "node:module";

/**
 * node-forge, loaded as the CommonJS module it is (its exports are built at run time, so an ESM named
 * import finds none of them).
 */
export const forge = createRequire(import.meta.url)("node-forge") as typeof import("node-forge");
