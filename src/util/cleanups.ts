/**
 * What must be undone if the process is interrupted: containers to remove,
 * temporary directories to delete. Adapters register an undo when they
 * create something and drop it when they have cleaned up themselves; an
 * entry point runs whatever is left on SIGINT/SIGTERM.
 */
export class Cleanups {
  private readonly pending = new Map<number, () => Promise<void> | void>();
  private next = 0;

  /** Registers an undo; call the returned function once it is no longer needed. */
  add(undo: () => Promise<void> | void): () => void {
    const id = this.next++;
    this.pending.set(id, undo);
    return () => this.pending.delete(id);
  }

  get size(): number {
    return this.pending.size;
  }

  /** Runs every pending undo (in parallel, each bounded by `timeoutMs`); never throws. */
  async runAll(timeoutMs = 10_000): Promise<void> {
    const undos = [...this.pending.values()];
    this.pending.clear();
    await Promise.all(
      undos.map((undo) =>
        Promise.race([
          Promise.resolve()
            .then(undo)
            .catch(() => {}),
          new Promise<void>((r) => setTimeout(r, timeoutMs).unref()),
        ]),
      ),
    );
  }
}
