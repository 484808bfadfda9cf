import { existsSync, lstatSync, rmSync, statSync } from 'node:fs';
import { realDir } from '../stores/real-dir.js';
import { UsageError } from '../../errors.js';
import { join } from 'node:path';
import {
  INDEX_PATH,
  MAX_ENTRY_BYTES,
  MAX_INDEX_BYTES,
  entryPath,
  indexRow,
  type HistoryEntry,
} from '../../contracts/history.js';
import { readRegularFile, UnreadableFileError } from '../stores/read-file.js';
import type { IndexRow } from '../../contracts/history.js';
import { writeFileAtomic, writing } from '../stores/atomic.js';
import { applyRetention, mergeRow } from './index-merge.js';
import { foreignIndex, parseEntry, parseIndex, serializeEntry, serializeIndex } from './parse.js';
import {
  checkedEntry,
  extraFiles,
  isEntryKey,
  type HistoryStore,
  type RecordOptions,
  type RecordOutcome,
  type Warn,
} from './store.js';

/**
 * History in a local directory (the CLI's `--history DIR`):
 * `DIR/index.json` and `DIR/entries/<name>/<commit>.json`, each written
 * whole with write-then-rename. The entry is written before the index, so
 * the index never names an entry that is not there.
 *
 * One writer at a time: two processes recording into the same directory at
 * the same instant can lose one index row (the entry files both stay).
 */
export class DirHistory implements HistoryStore {
  readonly location: string;

  constructor(
    private readonly dir: string,
    private readonly warn: Warn,
  ) {
    this.location = `directory ${dir}`;
  }

  /**
   * Opens DIR as a history, checked before any work: a path that is a file,
   * or an index.json that is not a tracegate history index (someone else's,
   * or unreadable), is refused and never overwritten; an index written by a
   * newer tracegate is refused naming its version.
   */
  static open(dir: string, warn: Warn): DirHistory {
    const kind = statSync(dir, { throwIfNoEntry: false });
    if (kind && !kind.isDirectory())
      throw new UsageError(
        `--history ${dir} is a file: give a directory (it is created if missing)`,
      );
    const index = join(dir, INDEX_PATH);
    if (existsSync(index)) {
      let text: string;
      try {
        text = readRegularFile(index, { maxBytes: MAX_INDEX_BYTES, follow: false });
      } catch (error) {
        throw new UsageError(
          `--history ${dir}: cannot read ${index} (${(error as Error).message})`,
        );
      }
      const foreign = foreignIndex(text, index);
      if (foreign)
        throw new UsageError(
          `--history ${dir}: ${foreign}; refusing to write over it. Give an empty directory or one a tracegate run wrote.`,
        );
    }
    return new DirHistory(dir, warn);
  }

  /**
   * A file of the history, if there: read only when it is a regular file
   * (a link is not followed) within its bound; an entry that is not is
   * skipped with a warning, an index that is not is refused (UsageError).
   */
  private read(path: string): string | undefined {
    const file = this.inside(path);
    if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
    const index = path === INDEX_PATH;
    try {
      return readRegularFile(file, {
        maxBytes: index ? MAX_INDEX_BYTES : MAX_ENTRY_BYTES,
        follow: false,
      });
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      if (index) throw new UsageError(`--history ${this.dir}: ${error.message}.`);
      this.warn(`${error.message}: skipped.`);
      return undefined;
    }
  }

  /** A file of the history, its folders below DIR checked: a link among them is refused by name. */
  private inside(path: string): string {
    let at = this.dir;
    const parts = path.split('/');
    for (const part of parts.slice(0, -1)) at = realDir(join(at, part), 'A history folder');
    return join(at, parts.at(-1)!);
  }

  private rows(): IndexRow[] {
    const text = this.read(INDEX_PATH);
    if (text === undefined) return [];
    const { rows, warnings } = parseIndex(text, join(this.dir, INDEX_PATH));
    warnings.forEach((w) => this.warn(w));
    return rows;
  }

  index(): Promise<IndexRow[]> {
    return Promise.resolve().then(() => this.rows());
  }

  entry(name: string, commit: string): Promise<HistoryEntry | undefined> {
    return Promise.resolve().then(() => {
      if (!isEntryKey(name, commit)) return undefined;
      const path = entryPath(name, commit);
      const text = this.read(path);
      if (text === undefined) return undefined;
      const { entry, warning } = parseEntry(text, join(this.dir, path), { name, commit });
      if (warning) this.warn(warning);
      return entry;
    });
  }

  record(input: HistoryEntry, options?: RecordOptions): Promise<RecordOutcome> {
    return Promise.resolve().then(() => {
      const entry = checkedEntry(input);
      const path = entryPath(entry.name, entry.commit);
      writeFileAtomic(this.inside(path), serializeEntry(entry));
      const merged = mergeRow(this.rows(), indexRow(entry));
      const { kept, dropped } = applyRetention(
        merged,
        entry.name,
        options?.retention,
        entry,
        options?.now,
      );
      for (const [file, text] of extraFiles(options, kept))
        writeFileAtomic(this.inside(file), text);
      writeFileAtomic(join(this.dir, INDEX_PATH), serializeIndex(kept));
      for (const row of dropped) {
        const file = this.inside(entryPath(row.name, row.commit));
        writing(file, () => rmSync(file, { force: true }));
      }
      return { location: `${this.location}: ${path}`, rows: kept, dropped, attempts: 1 };
    });
  }
}
