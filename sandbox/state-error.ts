/** A provider-state setup that cannot be done with these params (answered 400, never a crash). */
export class StateError extends Error {
  override name = "StateError";
}
