/**
 * The recording proxy, the cassettes and the replay server, as a library.
 *
 * @example
 * import { startRecorder, startReplay, loadCassette } from "assopay-contract/proxy";
 */

export type { Problem } from "../core/http/problem.js";
export { placeholderFor } from "../core/secrets/placeholder.js";
export type {
  Cassette,
  CassetteHeader,
  CassetteWarning,
  ContentCoding,
  Interaction,
  LoadedInteraction,
  NotificationRecord,
  StoredBody,
  StoredHeaders,
  StoredQuery,
  StoredRequest,
  StoredResponse,
} from "./cassette/format.js";
export { CASSETTE_FORMAT } from "./cassette/format.js";
export { parseCassette } from "./cassette/reader.js";
export { cassetteSchema } from "./cassette/schema.js";
export type { ProxyEvent, ProxyEventSink } from "./events.js";
export { type InterceptOptions, installIntercept } from "./intercept/install.js";
export { type LoadCassetteOptions, loadCassette } from "./load-cassette.js";
export { DEFAULT_MAX_BODY_BYTES } from "./options.js";
export { DEFAULT_NOTIFICATION_PATH, type RecorderOptions, type RecordMode } from "./record/options.js";
export { type RunningRecorder, startRecorder } from "./record/server.js";
export type { ReplayOptions } from "./replay/options.js";
export { type RunningReplay, startReplay } from "./replay/server.js";
