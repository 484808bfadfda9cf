import { scorerOf, type HistoryEntry, type IndexRow } from '../../contracts/history.js';
import type { Results } from '../../contracts/results.js';
import type { Baseline, BaselineSource } from '../../contracts/ports.js';
import { BaselineUnavailableError } from '../../errors.js';
import { BaselineNotFoundError } from './errors.js';
import { rowsByCommit, rowsMatching } from './index-merge.js';
import type { HistoryStore } from './store.js';

/** What the run is: it decides which commit's entry is the baseline. */
export type BaselineEvent =
  /** A pull request: the merge base of its base and head, else the base branch's latest entry. */
  | { kind: 'pull_request'; number: number; baseRef: string; baseSha: string; headSha: string }
  /**
   * A push (or a CLI run at a commit): the first parent, walking back. `before`
   * is the branch's previous head from the push payload: where to start when
   * the parents cannot be read.
   */
  | { kind: 'push'; sha: string; branch?: string; parent?: string; before?: string }
  /** An explicit commit (full or abbreviated sha). */
  | { kind: 'commit'; sha: string };

/** What makes a baseline comparable with the candidate: the same prompt version and scorer. */
export interface Comparable {
  prompt: string;
  /** `name@version`; when unknown, scorers are not compared here (the gate still checks). */
  scorer?: string;
}

/** The candidate's prompt version and scorer, read from its results (the scorer defensively). */
export function comparableOf(results: Pick<Results, 'promptVersion'>): Comparable {
  const scorer = scorerOf(results);
  return { prompt: results.promptVersion, ...(scorer ? { scorer } : {}) };
}

/** The commit graph of the user's repository (GitHub's API, or `git` for the CLI). */
export interface CommitGraph {
  /** The merge base of `base` and `head`, or undefined when it cannot be known. */
  mergeBase?(base: string, head: string): Promise<string | undefined>;
  /** The commit's parents, first parent first. */
  parentsOf?(sha: string): Promise<string[]>;
}

export interface BaselineOptions {
  store: HistoryStore;
  /** The run name: only its series is searched. */
  name: string;
  event: BaselineEvent;
  candidate: Comparable;
  graph: CommitGraph;
  /** How many commits to walk back through first parents (default 20). */
  maxWalk?: number;
  /** Says how a baseline is created, in the no-baseline message (the front door knows its flags). */
  howToRecord?: string;
}

/** A baseline found in the history. */
export interface HistoryBaseline extends Baseline {
  commit: string;
  /** How it was found, e.g. `merge base of #12`. */
  how: string;
  entry: HistoryEntry;
}

/** A commit whose entry was there but could not be the baseline. */
export interface Skip {
  commit: string;
  reason: string;
}

export interface Resolution {
  baseline?: HistoryBaseline;
  /**
   * Set when no baseline was found and a lookup failed on the way (the
   * commit graph could not be read): the baseline may exist, so the run is
   * not a run without one.
   */
  unavailable?: string;
  /** Set when there is no baseline: why, and how to create one. */
  message?: string;
  /** Things worth a notice: a fallback taken, a merge base not found. */
  notices: string[];
  skipped: Skip[];
}

const short = (sha: string) => sha.slice(0, 7);
const DEFAULT_HOW =
  'A run on a push to the base branch records one (the Action on push with the history store; ' +
  'the CLI with `--history DIR --commit SHA`); later runs compare with it.';

/** Searches one run name's rows; remembers why commits were passed over. */
class Search {
  readonly skipped: Skip[] = [];
  readonly notices: string[] = [];
  /** Lookups that failed (the commit graph could not be read), said when nothing is found. */
  readonly failures: string[] = [];
  readonly byCommit: Map<string, IndexRow>;

  constructor(
    private readonly options: BaselineOptions,
    readonly rows: IndexRow[],
  ) {
    this.byCommit = rowsByCommit(rows, options.name);
  }

  private mismatch(prompt: string | undefined, scorer: string | undefined): string | undefined {
    const want = this.options.candidate;
    if (prompt !== undefined && prompt !== want.prompt)
      return `prompt version ${prompt}, this run ${want.prompt}`;
    if (scorer !== undefined && want.scorer !== undefined && scorer !== want.scorer)
      return `scorer ${scorer}, this run ${want.scorer}`;
    return undefined;
  }

  private skip(commit: string, reason: string): undefined {
    this.skipped.push({ commit, reason });
    return undefined;
  }

  /** The baseline at `commit` when it has a comparable, readable entry. */
  async at(commit: string, how: string): Promise<HistoryBaseline | undefined> {
    const row = this.byCommit.get(commit);
    if (!row) return undefined;
    const early = this.mismatch(row.promptVersion, row.scorer);
    if (early) return this.skip(commit, early);
    const entry = await this.options.store.entry(this.options.name, commit);
    if (!entry) return this.skip(commit, 'its entry is missing or unreadable');
    const late = this.mismatch(entry.results.promptVersion, scorerOf(entry.results));
    if (late) return this.skip(commit, late);
    return {
      results: entry.results,
      source: `history: ${short(commit)} (${how})`,
      commit,
      how,
      entry,
    };
  }

  /** `start`, then its first parents, up to `maxWalk` commits in all. */
  async walk(start: string, how: (steps: number) => string): Promise<HistoryBaseline | undefined> {
    const max = Math.max(1, this.options.maxWalk ?? 20);
    const { graph } = this.options;
    let commit = start;
    for (let steps = 0; ; steps++) {
      const found = await this.at(commit, how(steps));
      if (found || !graph.parentsOf || steps >= max - 1) return found;
      let parent: string | undefined;
      try {
        parent = (await graph.parentsOf(commit))[0];
      } catch (error) {
        const why = `could not read the parents of ${short(commit)}: ${(error as Error).message}`;
        this.failures.push(why);
        this.notices.push(`Stopped walking back at ${short(commit)}: ${why}`);
      }
      if (!parent) return undefined;
      commit = parent;
    }
  }

  /** The newest comparable entry recorded on `branch` (at most `maxWalk` tried). */
  async latestOn(branch: string): Promise<HistoryBaseline | undefined> {
    let tried = 0;
    for (let i = this.rows.length - 1; i >= 0 && tried < (this.options.maxWalk ?? 20); i--) {
      const row = this.rows[i]!;
      if (row.name !== this.options.name || row.branch !== branch) continue;
      tried++;
      const found = await this.at(row.commit, `latest entry on ${branch}`);
      if (found) return found;
    }
    return undefined;
  }
}

async function forPullRequest(
  search: Search,
  event: Extract<BaselineEvent, { kind: 'pull_request' }>,
  graph: CommitGraph,
): Promise<HistoryBaseline | undefined> {
  const pr = `#${event.number}`;
  let mergeBase: string | undefined;
  try {
    mergeBase = await graph.mergeBase?.(event.baseSha || event.baseRef, event.headSha);
  } catch (error) {
    const why = `could not find the merge base of ${pr}: ${(error as Error).message}`;
    search.failures.push(why);
    search.notices.push(`C${why.slice(1)}`);
  }
  if (mergeBase) {
    const found = await search.walk(mergeBase, (n) =>
      n === 0 ? `merge base of ${pr}` : `${n} commit(s) before the merge base of ${pr}`,
    );
    if (found) return found;
  }
  const latest = await search.latestOn(event.baseRef);
  if (latest)
    search.notices.push(
      `No entry for ${mergeBase ? `the merge base ${short(mergeBase)} of ${pr}` : `the merge base of ${pr}`}` +
        ` or the commits before it; comparing with the latest entry on ${event.baseRef} ` +
        `(${short(latest.commit)}, recorded ${latest.entry.recordedAt}), which may hold commits this PR does not.`,
    );
  return latest;
}

async function forPush(
  search: Search,
  event: Extract<BaselineEvent, { kind: 'push' }>,
  graph: CommitGraph,
): Promise<HistoryBaseline | undefined> {
  let parent = event.parent;
  if (!parent && graph.parentsOf) {
    try {
      parent = (await graph.parentsOf(event.sha))[0];
    } catch (error) {
      const why = `could not read the parents of ${short(event.sha)}: ${(error as Error).message}`;
      search.failures.push(why);
      search.notices.push(`C${why.slice(1)}`);
    }
  }
  const from = short(event.sha);
  if (parent) {
    const found = await search.walk(parent, (n) =>
      n === 0 ? `first parent of ${from}` : `${n + 1} commits back from ${from}`,
    );
    if (found || !search.failures.length) return found;
  }
  if (!search.failures.length) return undefined;
  // The graph failed: fall back to what needs no lookup, the push's previous head and the history itself.
  const before = event.before && event.before !== parent ? event.before : undefined;
  const viaBefore = before && (await search.at(before, `the previous head of the push to ${from}`));
  const found = viaBefore || (event.branch ? await search.latestOn(event.branch) : undefined);
  if (found)
    search.notices.push(
      `The commit graph could not be read; comparing with ${found.how} (${short(found.commit)}).`,
    );
  return found;
}

async function forCommit(search: Search, sha: string, name: string): Promise<HistoryBaseline> {
  const rows = rowsMatching(search.rows, name, sha);
  if (rows.length > 1)
    throw new BaselineNotFoundError(
      `The baseline sha ${sha} is ambiguous in the history of ${name}: it starts ` +
        `${rows.map((r) => short(r.commit)).join(', ')}. Give more of the sha.`,
    );
  const found = rows[0] && (await search.at(rows[0].commit, `the commit asked for`));
  if (found) return found;
  const why = search.skipped[0]?.reason ?? 'no entry of that commit';
  throw new BaselineNotFoundError(
    `No usable baseline for ${name} at ${sha}: ${why}. Give a commit that has a comparable entry, ` +
      'or `baseline: auto` to find one.',
  );
}

/** Finds the baseline the event calls for (see BaselineEvent) in the history. */
export async function findBaseline(options: BaselineOptions): Promise<Resolution> {
  const { store, name, event, graph } = options;
  const search = new Search(options, await store.index());
  let baseline: HistoryBaseline | undefined;
  if (event.kind === 'pull_request') baseline = await forPullRequest(search, event, graph);
  else if (event.kind === 'push') baseline = await forPush(search, event, graph);
  else baseline = await forCommit(search, event.sha, name);
  const { notices, skipped, failures } = search;
  if (baseline) return { baseline, notices, skipped };
  if (failures.length) return { unavailable: failures.join('; '), notices, skipped };
  const where =
    event.kind === 'pull_request'
      ? `for the merge base of #${event.number} or on ${event.baseRef}`
      : `for the parents of ${short(event.sha)}`;
  const passed = skipped.length
    ? ` (not comparable: ${skipped.map((s) => `${short(s.commit)}: ${s.reason}`).join('; ')})`
    : '';
  const message =
    `No baseline: ${store.location} has no comparable entry of ${name} ${where}${passed}. ` +
    (options.howToRecord ?? DEFAULT_HOW);
  return { message, notices, skipped };
}

/**
 * The BaselineSource the pipeline asks: a history baseline found for the
 * event, with each notice and skip said through `notice`. With none,
 * `resolve()` gives undefined (the gate says no-baseline) and `resolution`
 * holds the message saying how to create one.
 */
export class HistoryBaselineSource implements BaselineSource {
  resolution?: Resolution;

  constructor(
    private readonly options: BaselineOptions,
    private readonly notice: (message: string) => void,
  ) {}

  async resolve(): Promise<HistoryBaseline | undefined> {
    const resolution = await findBaseline(this.options);
    this.resolution = resolution;
    resolution.notices.forEach((n) => this.notice(n));
    if (resolution.baseline && resolution.skipped.length)
      this.notice(
        `Passed over ${resolution.skipped.length} entr(ies) that are not comparable with this run: ` +
          resolution.skipped.map((s) => `${short(s.commit)}: ${s.reason}`).join('; '),
      );
    if (resolution.message) this.notice(resolution.message);
    if (resolution.unavailable) throw new BaselineUnavailableError(resolution.unavailable);
    return resolution.baseline;
  }
}
