#!/usr/bin/env node
// The CLI's front door: everything happens in cli/commands.ts. Here only the
// process's lifecycle: Ctrl-C or SIGTERM aborts the run, removes its
// containers and temp dirs, and lets it write what it has (marked incomplete).
import { cli } from './doors/cli/commands.js';
import { Cleanups } from './util/cleanups.js';

const controller = new AbortController();
const cleanups = new Cleanups();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals) => {
  if (++interrupts > 1) process.exit(130);
  process.stderr.write(`tracegate: ${signal}: stopping, removing containers and temp files…\n`);
  controller.abort(signal);
  void cleanups.runAll().then(() => {
    // The run writes its incomplete results and exits; if it cannot, do not hang.
    setTimeout(() => process.exit(130), 15_000).unref();
  });
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await cli(process.argv.slice(2), undefined, { signal: controller.signal, cleanups });
// After an interrupt, the run returns as soon as its results are written; the
// containers it was creating or running may still be going away.
await cleanups.settled();
// Exit once the output is flushed: a socket of a lost engine must not keep a finished run alive.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
