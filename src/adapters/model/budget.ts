/**
 * A total time budget shared by every request of a run. The clock starts at
 * the first request (harvesting before it does not count).
 */
export class TimeBudget {
  private startedAt?: number;

  constructor(
    readonly totalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds left; starts the clock on first use. */
  remainingMs(): number {
    this.startedAt ??= this.now();
    return this.totalMs - (this.now() - this.startedAt);
  }
}
