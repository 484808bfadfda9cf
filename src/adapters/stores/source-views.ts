import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  sourceViewSchema,
  type SourceView,
  type SourceViewStore,
} from '../../contracts/source-view.js';
import { parseStoredJson } from '../../util/json.js';
import { writeFileAtomic } from './atomic.js';
import { readRegularFile } from './read-file.js';
import { realDir } from './real-dir.js';

/**
 * The largest view file read. An export is capped at 256 MiB of archive
 * (docker/source-export.ts) and holds part of it as text; JSON's escapes make
 * that text longer by a fraction, not a multiple, for source code.
 */
const MAX_VIEW_BYTES = 384 * 1024 * 1024;

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * Exported source views by environment digest, one file each: `<dir>/<digest>.json`.
 * The directory may be restored from elsewhere (the Actions cache): a file is read only when it
 * is a regular file (a link is not followed) under a size cap and a valid view; anything else
 * reads as none (reported through `warn` when a file is there), and the view is exported again.
 */
export class DirSourceViews implements SourceViewStore {
  constructor(
    private readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  get(digest: string): SourceView | undefined {
    if (!DIGEST.test(digest)) return undefined;
    const file = join(this.dir, `${digest}.json`);
    try {
      if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
      const text = readRegularFile(file, { maxBytes: MAX_VIEW_BYTES, follow: false });
      return sourceViewSchema.parse(parseStoredJson(text));
    } catch (error) {
      this.warn(
        `Ignoring the source view ${file} (${(error as Error).message.split('\n')[0]}); it will be exported again.`,
      );
      return undefined;
    }
  }

  put(digest: string, view: SourceView): void {
    if (!DIGEST.test(digest)) throw new Error(`not an environment digest: ${digest}`);
    const file = join(realDir(this.dir, 'The source view directory'), `${digest}.json`);
    // A directory where the file goes (a restored cache may hold anything): the view replaces it.
    if (lstatSync(file, { throwIfNoEntry: false })?.isDirectory())
      rmSync(file, { recursive: true, force: true });
    writeFileAtomic(file, JSON.stringify(view) + '\n');
  }
}
