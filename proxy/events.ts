/**
 * What the recorder and the replay server report while they run. The command line prints `message`;
 * library users may log, count or assert on them.
 */
export interface ProxyEvent {
  kind:
    | "recorded"
    | "replayed"
    | "miss"
    | "upstream-error"
    | "refused"
    | "notification"
    | "warning"
    | "write-error";
  /** One line for people. */
  message: string;
}

/** Receives events; the default drops them. */
export type ProxyEventSink = (event: ProxyEvent) => void;

export const ignoreEvents: ProxyEventSink = () => undefined;
