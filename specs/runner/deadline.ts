/** A signal that fires when its parent does or when its own timer runs out, and a way to let it go. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the timer, not the parent, fired. */
  expired(): boolean;
  /** Stops the timer and unhooks the parent; call it when the guarded work is over. */
  done(): void;
}

/**
 * Bounds work by a timer this module owns. `AbortSignal.timeout` combined through `AbortSignal.any`
 * stops firing on Node 20 once a garbage collection has run, which left verify waiting forever on a
 * target that took the connection and never answered; a plain `setTimeout` held here does not.
 *
 * @example
 * const deadline = withDeadline(runSignal, 30_000, () => new Error("30 s passed"));
 * try { await fetch(url, { signal: deadline.signal }); } finally { deadline.done(); }
 */
export function withDeadline(
  parent: AbortSignal,
  timeoutMs: number | undefined,
  reason: () => Error,
): Deadline {
  const controller = new AbortController();
  let fired = false;
  const onParentAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onParentAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          fired = true;
          controller.abort(reason());
        }, timeoutMs);
  return {
    signal: controller.signal,
    expired: () => fired,
    done: () => {
      if (timer !== undefined) clearTimeout(timer);
      parent.removeEventListener("abort", onParentAbort);
    },
  };
}
