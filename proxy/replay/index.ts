/**
 * Replay, as a library: serving recorded cassettes over HTTP (`startReplay`), or answering requests
 * without a server (`Replayer`: the nock entry and the recorder's modes `once` and `new` use it, so that
 * a miss is answered one way everywhere).
 *
 * @example
 * import { startReplay } from "./replay/index.js";
 * const replay = await startReplay({ cassettes: "recordings/pagination-crawl.yaml" });
 */

export { describeRule, parseIgnore, parseMatch } from "./match-rules.js";
export type { ReplayOptions } from "./options.js";
export {
  cassetteWarnings,
  type ReplayAnswer,
  Replayer,
  type ReplayerOptions,
  type WhenExhausted,
} from "./replayer.js";
export { RESET_PATH, type RunningReplay, startReplay } from "./server.js";
