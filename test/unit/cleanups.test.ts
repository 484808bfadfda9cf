import { Cleanups } from '../../src/util/cleanups.js';

/** A promise and the function that resolves it, to play a request in flight. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Cleanups', () => {
  it('runs the pending undos, and not those dropped', async () => {
    const cleanups = new Cleanups();
    const done: string[] = [];
    cleanups.add(() => void done.push('a'));
    const forget = cleanups.add(() => void done.push('b'));
    forget();
    await cleanups.runAll();
    expect(done).toEqual(['a']);
    expect(cleanups.size).toBe(0);
  });

  it('waits for a creation in flight and undoes what it created', async () => {
    const cleanups = new Cleanups();
    const removed: string[] = [];
    const create = deferred<string>();
    // What an adapter does: register the removal as soon as the creation returns.
    void cleanups.track(
      create.promise.then((id) => {
        cleanups.add(() => void removed.push(id));
        return id;
      }),
    );
    let finished = false;
    const all = cleanups.runAll().then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(finished).toBe(false);
    create.resolve('container-1');
    await all;
    expect(removed).toEqual(['container-1']);
    await cleanups.settled();
  });

  it('runs an undo registered after the interrupt at once, and settled waits for it', async () => {
    const cleanups = new Cleanups();
    await cleanups.runAll();
    expect(cleanups.closed).toBe(true);
    let undone = false;
    cleanups.add(
      () =>
        new Promise<void>((r) =>
          setTimeout(() => {
            undone = true;
            r();
          }, 10),
        ),
    );
    expect(cleanups.size).toBe(0);
    await cleanups.runAll();
    expect(undone).toBe(true);
  });

  it('is bounded: a request that never returns does not hold the exit past the timeout', async () => {
    const cleanups = new Cleanups();
    void cleanups.track(new Promise(() => {}));
    const started = Date.now();
    await cleanups.runAll(50);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('settles at once when nothing was interrupted', async () => {
    await expect(new Cleanups().settled()).resolves.toBeUndefined();
  });

  it('an undo that throws does not stop the others', async () => {
    const cleanups = new Cleanups();
    let ran = false;
    cleanups.add(() => {
      throw new Error('engine gone');
    });
    cleanups.add(() => void (ran = true));
    await cleanups.runAll();
    expect(ran).toBe(true);
  });
});
