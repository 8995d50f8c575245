import { type MatchRule, matchRulesFromFlags } from "../../proxy/replay/match-rules.js";
import {
  ALLOW_HOST_FLAGS,
  ALLOW_HOST_HELP,
  allowHostsFlag,
  type FlagSpec,
  listFlag,
  type ParsedFlags,
  stringFlag,
} from "../flags.js";
import { INTERCEPT_FLAGS, INTERCEPT_HELP } from "./intercept-flags.js";

/**
 * The flags `record` and `replay` share besides their own: the address to bind, the match rules, what
 * to print, and the hosts to intercept and to answer.
 */
export const SERVER_FLAGS: FlagSpec = {
  host: { type: "string" },
  ignore: { type: "string", multiple: true },
  match: { type: "string", multiple: true },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
  ...INTERCEPT_FLAGS,
  ...ALLOW_HOST_FLAGS,
};

/** The last lines of both verbs' flags in their help, before `--help`: intercepting and answering hosts. */
export const SERVER_HELP = `${INTERCEPT_HELP}\n${ALLOW_HOST_HELP}`;

/** What both servers take from those flags as given: the address to bind, the hosts to answer, the match rules. */
export function listenOptions(flags: ParsedFlags): {
  host: string | undefined;
  allowHosts: string[];
  matchRules: MatchRule[];
} {
  return {
    host: stringFlag(flags, "host"),
    allowHosts: allowHostsFlag(flags),
    matchRules: matchRulesFromFlags(listFlag(flags, "ignore"), listFlag(flags, "match")),
  };
}
