import {
  INDEX_PATH,
  MAX_ENTRY_BYTES,
  MAX_INDEX_BYTES,
  entryPath,
  indexRow,
  type HistoryEntry,
  type IndexRow,
} from '../../contracts/history.js';
import { HistoryAccessError } from './errors.js';
import { GitData, type Octokit, type RepoRef, type TreeChange } from './git-data.js';
import { applyRetention, mergeRow } from './index-merge.js';
import { parseEntry, parseIndex, serializeEntry, serializeIndex } from './parse.js';
import {
  checkedEntry,
  extraFiles,
  isEntryKey,
  type HistoryStore,
  type RecordOptions,
  type RecordOutcome,
  type Warn,
} from './store.js';

export const DEFAULT_DATA_BRANCH = 'tracegate-data';

export interface BranchHistoryOptions extends RepoRef {
  /** The data branch (default `tracegate-data`); created as an orphan branch on the first write. */
  branch?: string;
  warn: Warn;
  /** Writes tried before giving up when other writers keep moving the branch (default 6). */
  attempts?: number;
  /** Base delay between attempts; doubled each time, with jitter (default 250 ms). */
  backoffMs?: number;
  /** Injected for tests: the wait between attempts and the jitter's source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Largest entry read (default MAX_ENTRY_BYTES): a larger blob is skipped unfetched. */
  maxEntryBytes?: number;
}

/** The branch at one commit: its tree and the index it holds. */
interface Snapshot {
  commit: string;
  tree: string;
}

/**
 * History on a data branch of the user's repository, through the git-data
 * API: a write is blobs → one tree on the head's tree (entry, index,
 * retention's deletions, extra files) → a commit → a fast-forward of the
 * ref. When another writer moved the branch first (409/422), the head is
 * re-read, the row merged into its index again, and the write retried, so
 * concurrent workflows both land.
 */
export class BranchHistory implements HistoryStore {
  readonly location: string;
  private readonly git: GitData;
  private readonly branch: string;
  private snapshot?: Promise<Snapshot | undefined>;
  private readonly warned = new Set<string>();

  constructor(
    octokit: Octokit,
    private readonly options: BranchHistoryOptions,
  ) {
    this.branch = options.branch ?? DEFAULT_DATA_BRANCH;
    this.location = `branch ${this.branch} of ${options.owner}/${options.repo}`;
    this.git = new GitData(octokit, { owner: options.owner, repo: options.repo }, this.location);
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.warn(message);
  }

  private where(path: string): string {
    return `${this.location}: ${path}`;
  }

  private async read(commit: string): Promise<Snapshot> {
    return { commit, tree: await this.git.commitTree(commit) };
  }

  /** The branch as first read by this store; reads stay on it so index and entries agree. */
  private current(): Promise<Snapshot | undefined> {
    this.snapshot ??= this.git
      .head(this.branch)
      .then((head) => (head ? this.read(head) : undefined))
      .catch((error: unknown) => {
        this.snapshot = undefined; // a failed read is not remembered: the next call asks again
        throw error;
      });
    return this.snapshot;
  }

  private async rowsAt(snapshot: Snapshot): Promise<IndexRow[]> {
    const item = await this.git.find(snapshot.tree, INDEX_PATH);
    if (!item || item.type !== 'blob') return [];
    if ((item.size ?? 0) > MAX_INDEX_BYTES)
      throw new HistoryAccessError(
        `${this.where(INDEX_PATH)} is ${item.size} bytes, over the ${MAX_INDEX_BYTES} read at most: ` +
          'set a retention to keep fewer entries, or give another history branch.',
      );
    const { rows, warnings } = parseIndex(await this.git.blob(item.sha), this.where(INDEX_PATH));
    warnings.forEach((w) => this.warn(w));
    return rows;
  }

  async index(): Promise<IndexRow[]> {
    const snapshot = await this.current();
    return snapshot ? this.rowsAt(snapshot) : [];
  }

  async entry(name: string, commit: string): Promise<HistoryEntry | undefined> {
    if (!isEntryKey(name, commit)) return undefined;
    const snapshot = await this.current();
    if (!snapshot) return undefined;
    const path = entryPath(name, commit);
    const item = await this.git.find(snapshot.tree, path);
    if (!item || item.type !== 'blob') return undefined;
    const most = this.options.maxEntryBytes ?? MAX_ENTRY_BYTES;
    if ((item.size ?? 0) > most) {
      this.warn(
        `${this.where(path)} is ${item.size} bytes, over the ${most} read at most: skipped.`,
      );
      return undefined;
    }
    const { entry, warning } = parseEntry(await this.git.blob(item.sha), this.where(path), {
      name,
      commit,
    });
    if (warning) this.warn(warning);
    return entry;
  }

  /** Deletions for the dropped rows whose entry file is there (deleting a missing path fails). */
  private async deletions(snapshot: Snapshot, dropped: IndexRow[]): Promise<TreeChange[]> {
    const changes: TreeChange[] = [];
    for (const row of dropped) {
      const path = entryPath(row.name, row.commit);
      if (await this.git.find(snapshot.tree, path)) changes.push({ path, sha: null });
    }
    return changes;
  }

  async record(input: HistoryEntry, options?: RecordOptions): Promise<RecordOutcome> {
    const entry = checkedEntry(input);
    const path = entryPath(entry.name, entry.commit);
    const entryBlob = await this.git.createBlob(serializeEntry(entry));
    const attempts = Math.max(1, this.options.attempts ?? 6);
    for (let attempt = 1; ; attempt++) {
      const head = await this.git.head(this.branch);
      const base = head ? await this.read(head) : undefined;
      const merged = mergeRow(base ? await this.rowsAt(base) : [], indexRow(entry));
      const { kept, dropped } = applyRetention(
        merged,
        entry.name,
        options?.retention,
        entry,
        options?.now,
      );
      const changes: TreeChange[] = [
        { path, sha: entryBlob },
        { path: INDEX_PATH, sha: await this.git.createBlob(serializeIndex(kept)) },
      ];
      for (const [file, text] of extraFiles(options, kept))
        changes.push({ path: file, sha: await this.git.createBlob(text) });
      if (base) changes.push(...(await this.deletions(base, dropped)));
      const tree = await this.git.createTree(base?.tree, changes);
      const message =
        `tracegate: record ${entry.name} at ${entry.commit.slice(0, 12)}` +
        (dropped.length ? `\n\nRetention dropped ${dropped.length} older entries.` : '');
      const commit = await this.git.createCommit(message, tree, head ? [head] : []);
      if (await this.git.moveRef(this.branch, commit, head !== undefined)) {
        this.snapshot = Promise.resolve({ commit, tree });
        return { location: this.where(path), rows: kept, dropped, attempts: attempt, commit };
      }
      if (attempt >= attempts)
        throw new HistoryAccessError(
          `Could not record ${entry.name} at ${entry.commit} on ${this.location}: other writers moved ` +
            `the branch first ${attempts} times in a row. Re-run the job to record it.`,
        );
      await this.pause(attempt);
    }
  }

  /** Exponential backoff with full jitter, so racing writers spread out. */
  private pause(attempt: number): Promise<void> {
    const base = (this.options.backoffMs ?? 250) * 2 ** (attempt - 1);
    const ms = base * (0.5 + (this.options.random ?? Math.random)());
    const sleep = this.options.sleep ?? ((t) => new Promise((r) => setTimeout(r, t)));
    return sleep(ms);
  }
}
