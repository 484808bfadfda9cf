/**
 * What must be undone if the process is interrupted: containers to remove,
 * temporary directories to delete. Adapters register an undo when they
 * create something and drop it when they have cleaned up themselves; an
 * entry point runs whatever is left on SIGINT/SIGTERM, and waits for it
 * (`settled`) before exiting.
 *
 * A creation may still be in flight when the signal lands (the engine is
 * creating a container the adapter has not heard of yet). Adapters wrap such
 * requests in `track`; `runAll` waits for them, and an undo registered after
 * `runAll` began runs at once, so what they created is removed too.
 */
export class Cleanups {
  private readonly pending = new Map<number, () => Promise<void> | void>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly late: Promise<void>[] = [];
  private closing: Promise<void> | undefined;
  private next = 0;

  /** Registers an undo; call the returned function once it is no longer needed. */
  add(undo: () => Promise<void> | void): () => void {
    if (this.closing) {
      this.late.push(settle(undo, LATE_UNDO_MS));
      return () => {};
    }
    const id = this.next++;
    this.pending.set(id, undo);
    return () => this.pending.delete(id);
  }

  /** Marks a request whose result may need undoing; `runAll` waits for it. */
  track<T>(request: Promise<T>): Promise<T> {
    this.inFlight.add(request);
    const done = () => this.inFlight.delete(request);
    request.then(done, done);
    return request;
  }

  get size(): number {
    return this.pending.size;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  /**
   * Runs every pending undo (in parallel, each bounded by `timeoutMs`), waits
   * for tracked requests and the undos they register; never throws. Calling
   * it again runs nothing twice.
   */
  runAll(timeoutMs = 10_000): Promise<void> {
    this.closing ??= this.close(timeoutMs);
    return this.settled();
  }

  /**
   * Resolves once an interrupt's cleanup has finished, undos registered since
   * included; at once if there was no interrupt.
   */
  async settled(): Promise<void> {
    if (!this.closing) return;
    await this.closing;
    await Promise.all(this.late);
  }

  private async close(timeoutMs: number): Promise<void> {
    const undos = [...this.pending.values()];
    this.pending.clear();
    const deadline = new Promise<void>((r) => setTimeout(r, timeoutMs).unref());
    await Promise.all(undos.map((undo) => settle(undo, timeoutMs)));
    await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
  }
}

const LATE_UNDO_MS = 10_000;

function settle(undo: () => Promise<void> | void, timeoutMs: number): Promise<void> {
  return Promise.race([
    Promise.resolve()
      .then(undo)
      .catch(() => {}),
    new Promise<void>((r) => setTimeout(r, timeoutMs).unref()),
  ]);
}
