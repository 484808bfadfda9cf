import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import type { QuarantineStore } from '../../contracts/ports.js';

/** Nondeterministic instances' answers, one file per instance: `<dir>/<id>.json`. */
export class DirQuarantine implements QuarantineStore {
  constructor(private readonly dir: string) {}

  put(id: string, runs: unknown[]): string {
    // Ids are validated ([A-Za-z0-9._-], not starting with a dot), so one is one file name.
    const file = join(this.dir, `${id}.json`);
    writeFileAtomic(file, JSON.stringify({ id, runs }, null, 2) + '\n');
    return file;
  }
}
