/** Counts pieces of work under way, so that a server can wait for them before it stops. */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  start(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves once nothing is under way. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
