import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findBaseline,
  HistoryBaselineSource,
  type BaselineEvent,
  type CommitGraph,
} from '../../src/adapters/history/baseline.js';
import { DirHistory } from '../../src/adapters/history/dir.js';
import { BaselineUnavailableError } from '../../src/errors.js';
import { BaselineNotFoundError } from '../../src/adapters/history/errors.js';
import { at, entry, sha, warnings, type EntryOptions } from '../helpers/history.js';

/**
 * main: m1 ← m2 ← m3 ← m4 ← m5 (first parents); the PR branch forks at m3.
 * A commit's parents come from this map (what `git` or the API would say).
 */
const PARENTS: Record<string, string[]> = {};
for (let i = 2; i <= 30; i++) PARENTS[sha(`m${i}`)] = [sha(`m${i - 1}`)];
PARENTS[sha('pr1')] = [sha('m3')];
PARENTS[sha('pr2')] = [sha('pr1'), sha('m5')];

const graph = (calls: string[] = []): Required<CommitGraph> => ({
  mergeBase: (base, head) => {
    calls.push(`merge-base ${base.slice(0, 7)} ${head.slice(0, 7)}`);
    return Promise.resolve(head === sha('pr2') ? sha('m3') : undefined);
  },
  parentsOf: (commit) => {
    calls.push(`parents ${commit.slice(0, 7)}`);
    return Promise.resolve(PARENTS[commit] ?? []);
  },
});

const candidate = { prompt: 'p3', scorer: 'tracegate-strict@1' };
const PR: BaselineEvent = {
  kind: 'pull_request',
  number: 12,
  baseRef: 'main',
  baseSha: sha('m5'),
  headSha: sha('pr2'),
};
const push = (label: string, extra: object = {}): BaselineEvent => ({
  kind: 'push',
  sha: sha(label),
  branch: 'main',
  ...extra,
});

async function historyWith(
  labels: [string, EntryOptions?][],
): Promise<{ store: DirHistory; dir: string; seen: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-baseline-'));
  const { warn, seen } = warnings();
  const store = new DirHistory(dir, warn);
  let minute = 0;
  for (const [label, options] of labels)
    await store.record(entry(label, { branch: 'main', recordedAt: at(++minute), ...options }));
  return { store, dir, seen };
}

const find = (
  store: DirHistory,
  event: BaselineEvent,
  g: CommitGraph = graph(),
  maxWalk?: number,
) =>
  findBaseline({
    store,
    name: 'tracegate',
    event,
    candidate,
    graph: g,
    ...(maxWalk ? { maxWalk } : {}),
  });

describe('baseline resolution for a pull request', () => {
  it('takes the entry of the merge base, found through the compare API, and says so', async () => {
    const { store } = await historyWith([['m2'], ['m3'], ['m5']]);
    const calls: string[] = [];
    const { baseline, notices } = await find(store, PR, graph(calls));
    expect(baseline?.commit).toBe(sha('m3'));
    expect(baseline?.source).toBe(`history: ${sha('m3').slice(0, 7)} (merge base of #12)`);
    expect(baseline?.results.summary.total).toBe(7);
    expect(notices).toEqual([]);
    expect(calls).toEqual([`merge-base ${sha('m5').slice(0, 7)} ${sha('pr2').slice(0, 7)}`]);
  });

  it('walks back from the merge base when it has no entry', async () => {
    const { store } = await historyWith([['m1'], ['m5']]);
    const { baseline } = await find(store, PR);
    expect(baseline?.commit).toBe(sha('m1'));
    expect(baseline?.how).toBe('2 commit(s) before the merge base of #12');
  });

  it("falls back to the base branch's latest entry with a notice", async () => {
    const { store } = await historyWith([['m4'], ['m5'], ['other', { branch: 'dev' }]]);
    const { baseline, notices } = await find(store, PR, graph(), 2);
    expect(baseline?.commit).toBe(sha('m5'));
    expect(baseline?.source).toBe(`history: ${sha('m5').slice(0, 7)} (latest entry on main)`);
    expect(notices).toEqual([
      expect.stringMatching(
        /^No entry for the merge base [0-9a-f]{7} of #12 or the commits before it; comparing with the latest entry on main/,
      ),
    ]);
  });

  it('falls back too when the merge base cannot be asked for', async () => {
    const { store } = await historyWith([['m5']]);
    const failing: CommitGraph = { mergeBase: () => Promise.reject(new Error('HTTP 500')) };
    const { baseline, notices } = await find(store, PR, failing);
    expect(baseline?.commit).toBe(sha('m5'));
    expect(notices[0]).toBe('Could not find the merge base of #12: HTTP 500');
  });
});

describe('baseline resolution for a push', () => {
  it("takes the first parent's entry", async () => {
    const { store } = await historyWith([['m3'], ['m4']]);
    const { baseline } = await find(store, push('m5'));
    expect(baseline?.source).toBe(
      `history: ${sha('m4').slice(0, 7)} (first parent of ${sha('m5').slice(0, 7)})`,
    );
  });

  it('walks back up to N commits, and no further', async () => {
    const { store } = await historyWith([['m10']]);
    const found = await find(store, push('m20'), graph(), 10);
    expect(found.baseline?.how).toBe(`10 commits back from ${sha('m20').slice(0, 7)}`);
    const calls: string[] = [];
    const missed = await find(store, push('m21'), graph(calls), 10);
    expect(missed.baseline).toBeUndefined();
    expect(calls).toHaveLength(10); // the parents of m21 … m12: ten commits tried, m11 last
  });

  it('uses the parent it is given when there is no commit graph (the CLI’s --parent)', async () => {
    const { store } = await historyWith([['m4']]);
    const { baseline } = await find(store, push('m5', { parent: sha('m4') }), {});
    expect(baseline?.commit).toBe(sha('m4'));
  });
});

describe('entries that cannot be paired', () => {
  it('passes over another prompt version or scorer, and says why', async () => {
    const { store } = await historyWith([
      ['m2'],
      ['m3', { scorer: 'swe-flux@1' }],
      ['m4', { prompt: 'p2' }],
    ]);
    const notices: string[] = [];
    const source = new HistoryBaselineSource(
      { store, name: 'tracegate', event: push('m5'), candidate, graph: graph() },
      (n) => notices.push(n),
    );
    const baseline = await source.resolve();
    expect(baseline?.commit).toBe(sha('m2'));
    expect(source.resolution?.skipped).toEqual([
      { commit: sha('m4'), reason: 'prompt version p2, this run p3' },
      { commit: sha('m3'), reason: 'scorer swe-flux@1, this run tracegate-strict@1' },
    ]);
    expect(notices).toEqual([
      expect.stringMatching(/^Passed over 2 entr\(ies\) that are not comparable with this run: /),
    ]);
  });

  it('passes over an unreadable entry (with the store’s warning naming the file)', async () => {
    const { store, dir, seen } = await historyWith([['m3'], ['m4']]);
    writeFileSync(join(dir, 'entries', 'tracegate', `${sha('m4')}.json`), 'garbage');
    const { baseline, skipped } = await find(store, push('m5'));
    expect(baseline?.commit).toBe(sha('m3'));
    expect(skipped).toEqual([{ commit: sha('m4'), reason: 'its entry is missing or unreadable' }]);
    expect(seen).toEqual([expect.stringContaining(`${sha('m4')}.json is not valid JSON`)]);
  });
});

describe('no baseline', () => {
  it('gives no baseline and a message saying how to create one', async () => {
    const { store } = await historyWith([]);
    const notices: string[] = [];
    const source = new HistoryBaselineSource(
      { store, name: 'tracegate', event: PR, candidate, graph: graph() },
      (n) => notices.push(n),
    );
    expect(await source.resolve()).toBeUndefined();
    expect(notices).toEqual([
      `No baseline: ${store.location} has no comparable entry of tracegate for the merge base of #12 ` +
        'or on main. A run on a push to the base branch records one (the Action on push with the ' +
        'history store; the CLI with `--history DIR --commit SHA`); later runs compare with it.',
    ]);
  });

  it('names the entries it passed over', async () => {
    const { store } = await historyWith([['m4', { prompt: 'p1' }]]);
    const { message } = await find(store, push('m5'));
    expect(message).toContain(
      `(not comparable: ${sha('m4').slice(0, 7)}: prompt version p1, this run p3)`,
    );
  });
});

describe('an explicit sha', () => {
  it('finds the entry by a prefix, and refuses an ambiguous or missing one', async () => {
    const { store } = await historyWith([['m3'], ['m4']]);
    const one = await find(store, { kind: 'commit', sha: sha('m3').slice(0, 9) });
    expect(one.baseline?.source).toBe(`history: ${sha('m3').slice(0, 7)} (the commit asked for)`);
    await expect(find(store, { kind: 'commit', sha: sha('nope') })).rejects.toThrow(
      BaselineNotFoundError,
    );
    await expect(find(store, { kind: 'commit', sha: '' })).rejects.toThrow(/is ambiguous/);
  });
});

describe('a baseline that cannot be looked up is never a pass', () => {
  const down: CommitGraph = {
    mergeBase: () => Promise.reject(new Error('DNS lookup failed (getaddrinfo ENOTFOUND api)')),
    parentsOf: () => Promise.reject(new Error('connection refused (connect ECONNREFUSED)')),
  };

  it("a push falls back to the payload's previous head when the parents cannot be read", async () => {
    const { store } = await historyWith([['m3'], ['m4']]);
    const { baseline, notices } = await find(store, push('m5', { before: sha('m3') }), down);
    expect(baseline?.commit).toBe(sha('m3'));
    expect(notices).toEqual([
      `Could not read the parents of ${sha('m5').slice(0, 7)}: connection refused (connect ECONNREFUSED)`,
      `The commit graph could not be read; comparing with the previous head of the push to ${sha('m5').slice(0, 7)} (${sha('m3').slice(0, 7)}).`,
    ]);
  });

  it("then to the branch's latest entry in the history itself", async () => {
    const { store } = await historyWith([['m3'], ['m4']]);
    const { baseline } = await find(store, push('m5'), down);
    expect(baseline?.commit).toBe(sha('m4'));
    expect(baseline?.how).toBe('latest entry on main');
  });

  it('with nothing found, the lookup failure is the answer, not "no baseline"', async () => {
    const { store } = await historyWith([]);
    const resolution = await find(store, push('m5'), down);
    expect(resolution.baseline).toBeUndefined();
    expect(resolution.message).toBeUndefined();
    expect(resolution.unavailable).toBe(
      `could not read the parents of ${sha('m5').slice(0, 7)}: connection refused (connect ECONNREFUSED)`,
    );
    const source = new HistoryBaselineSource(
      { store, name: 'tracegate', event: PR, candidate, graph: down },
      () => {},
    );
    await expect(source.resolve()).rejects.toThrow(BaselineUnavailableError);
    await expect(source.resolve()).rejects.toThrow(
      'the baseline could not be looked up: could not find the merge base of #12: DNS lookup failed',
    );
  });

  it('a walk stopped by a failed lookup is unavailable too', async () => {
    const { store } = await historyWith([['m1']]);
    const flaky: CommitGraph = {
      parentsOf: (c) =>
        c === sha('m5')
          ? Promise.resolve([sha('m4')])
          : Promise.reject(new Error('HTTP 502: bad gateway')),
    };
    const resolution = await find(store, { kind: 'push', sha: sha('m5') }, flaky);
    expect(resolution.unavailable).toBe(
      `could not read the parents of ${sha('m4').slice(0, 7)}: HTTP 502: bad gateway`,
    );
  });
});
