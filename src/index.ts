// The Action's front door (bundled to dist/index.js): everything happens in main.ts.
// Here only the process's lifecycle: a cancelled workflow sends SIGINT, then
// SIGTERM; either aborts the run, removes its containers and temp dirs, and lets
// it write what it has (marked incomplete) before the runner kills the process.
import { run } from './doors/action/main.js';
import { Cleanups } from './util/cleanups.js';

const controller = new AbortController();
const cleanups = new Cleanups();
const onSignal = (signal: NodeJS.Signals) => {
  controller.abort(signal);
  void cleanups.runAll();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

await run({ signal: controller.signal, cleanups });
await cleanups.settled();
