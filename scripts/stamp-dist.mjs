// Run by `npm run build` after tsc: writes dist/.sources-digest, the digest of the sources dist/ was just
// built from (core/compiled.ts). Worker threads and child processes started from the TypeScript sources
// (the tests) then run dist/'s JavaScript while it matches the sources, and the sources through tsx
// otherwise.
import { writeBuildStamp } from "../dist/core/compiled.js";

writeBuildStamp();
