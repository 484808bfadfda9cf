import { indexRow, type IndexRow } from '../../src/contracts/history.js';
import { HistoryVersionError } from '../../src/adapters/history/errors.js';
import {
  applyRetention,
  mergeRow,
  rowsMatching,
  latestOnBranch,
} from '../../src/adapters/history/index-merge.js';
import {
  parseEntry,
  parseIndex,
  serializeEntry,
  serializeIndex,
} from '../../src/adapters/history/parse.js';
import { at, entry, sha } from '../helpers/history.js';

const row = (commit: string, minutes: number, extra: Partial<IndexRow> = {}): IndexRow => ({
  ...indexRow(entry(commit, { recordedAt: at(minutes) })),
  ...extra,
});

describe('merging a row into the index', () => {
  it('replaces the row of the same name and commit and keeps rows ordered by recordedAt', () => {
    const rows = [row('a', 1), row('b', 2), row('c', 3)];
    const merged = mergeRow(rows, row('a', 4, { verdict: 'fail' }));
    expect(merged.map((r) => r.commit)).toEqual([sha('b'), sha('c'), sha('a')]);
    expect(merged.filter((r) => r.commit === sha('a'))).toHaveLength(1);
    expect(merged[2]!.verdict).toBe('fail');
  });

  it('keeps the row of the same commit under another run name', () => {
    const merged = mergeRow([row('a', 1)], row('a', 2, { name: 'nightly' }));
    expect(merged.map((r) => r.name)).toEqual(['tracegate', 'nightly']);
  });

  it('places a row recorded earlier than the newest one in its time order', () => {
    const merged = mergeRow([row('a', 1), row('c', 3)], row('b', 2));
    expect(merged.map((r) => r.commit)).toEqual([sha('a'), sha('b'), sha('c')]);
  });
});

describe('retention', () => {
  const rows = [
    row('a', 1),
    row('x', 1, { name: 'nightly' }),
    row('b', 2),
    row('c', 3),
    row('d', 4),
  ];

  it('keeps the newest N entries of the name and leaves other names alone', () => {
    const { kept, dropped } = applyRetention(rows, 'tracegate', { entries: 2 }, row('d', 4));
    expect(dropped.map((r) => r.commit)).toEqual([sha('a'), sha('b')]);
    expect(kept.map((r) => r.commit)).toEqual([sha('x'), sha('c'), sha('d')]);
  });

  it('drops entries older than the days given, never the one just recorded', () => {
    const now = new Date(Date.parse(at(4)) + 86_400_000);
    const { dropped } = applyRetention(rows, 'tracegate', { days: 1 }, row('d', 4), now);
    expect(dropped.map((r) => r.commit)).toEqual([sha('a'), sha('b'), sha('c')]);
  });

  it('drops nothing without a retention', () => {
    expect(applyRetention(rows, 'tracegate', undefined, row('d', 4)).dropped).toEqual([]);
  });
});

describe('look-ups', () => {
  const rows = [row('a', 1, { branch: 'main' }), row('b', 2, { branch: 'dev' }), row('c', 3)];
  it('finds the newest row of a branch', () => {
    expect(latestOnBranch(rows, 'tracegate', 'main')?.commit).toBe(sha('a'));
    expect(latestOnBranch(rows, 'tracegate', 'release')).toBeUndefined();
  });
  it('matches an abbreviated sha, case-insensitively', () => {
    expect(rowsMatching(rows, 'tracegate', sha('b').slice(0, 8).toUpperCase())).toHaveLength(1);
  });
});

describe('reading index and entry files', () => {
  const file = 'tracegate-data: index.json';

  it('reads back what it writes', () => {
    const rows = [row('a', 1), row('b', 2)];
    expect(parseIndex(serializeIndex(rows), file)).toEqual({ rows, warnings: [] });
    const e = entry('a');
    expect(parseEntry(serializeEntry(e), 'e.json', { name: e.name, commit: e.commit })).toEqual({
      entry: e,
    });
  });

  it('skips rows whose values are out of range, or a second row of one commit: never drawn', () => {
    const good = [row('a', 1), row('b', 2)];
    const text = serializeIndex([
      ...good,
      row('c', 3, { accuracy: 1e308 }),
      row('d', 4, { total: -5 }),
      row('e', 5, { correct: 9, total: 4 }),
      row('f', 6, { byKind: { S2_Loops: Infinity } }),
      row('a', 7),
    ]).replace('1e+308', '1e308');
    const { rows, warnings } = parseIndex(text, file);
    expect(rows).toEqual(good);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^tracegate-data: index\.json: 5 unreadable row\(s\) skipped: /);
    expect(warnings[0]).toMatch(
      /row 3 \(accuracy: .*\); row 4 \(total: .*\); row 5 \(.*correct is more than total\)/,
    );
    expect(warnings[0]).toContain(`row 7 (a second row of tracegate at ${sha('a')})`);
  });

  it('skips a corrupt file with a warning that names it', () => {
    const { rows, warnings } = parseIndex('{"schema": "tracegate/hist', file);
    expect(rows).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/^tracegate-data: index\.json is not valid JSON/),
    ]);
  });

  it('skips a foreign file (another tool, no schema) with a warning that names it', () => {
    const { warnings } = parseIndex('{"benchmarks": []}', file);
    expect(warnings[0]).toBe(
      'tracegate-data: index.json is not a tracegate history index (schema none): skipped.',
    );
    expect(parseEntry('[1, 2]', 'entries/x/y.json').warning).toMatch(
      /^entries\/x\/y\.json is not a tracegate history entry/,
    );
  });

  it('keeps the readable rows and names the bad ones', () => {
    const text = JSON.stringify({
      schema: 'tracegate/history@1',
      rows: [row('a', 1), { name: '../../etc', commit: 'passwd' }, row('b', 2)],
    });
    const { rows, warnings } = parseIndex(text, file);
    expect(rows.map((r) => r.commit)).toEqual([sha('a'), sha('b')]);
    expect(warnings).toEqual([
      expect.stringContaining(`${file}: 1 unreadable row(s) skipped: row 2`),
    ]);
  });

  it('refuses a file of a newer tracegate with an error that says to upgrade (exit 2)', () => {
    const text = JSON.stringify({ schema: 'tracegate/history@2', rows: [], whatever: true });
    expect(() => parseIndex(text, file)).toThrow(HistoryVersionError);
    try {
      parseEntry(text, 'entries/tracegate/abc.json');
    } catch (error) {
      expect((error as HistoryVersionError).exitCode).toBe(2);
      expect((error as Error).message).toMatch(
        /^entries\/tracegate\/abc\.json was written by a newer tracegate \(tracegate\/history@2\); this one reads tracegate\/history@1\. Upgrade tracegate/,
      );
      return;
    }
    throw new Error('expected a HistoryVersionError');
  });

  it('skips an entry whose content names another commit than its path', () => {
    const e = entry('a');
    const { warning } = parseEntry(serializeEntry(e), 'entries/tracegate/bbb.json', {
      name: 'tracegate',
      commit: sha('b'),
    });
    expect(warning).toMatch(/holds the entry of tracegate at [0-9a-f]{40}, not of its path/);
  });

  it('skips an entry whose results another version wrote, saying so', () => {
    const e = { ...entry('a'), results: { ...entry('a').results, schema: 'tracegate/results@1' } };
    const { entry: parsed, warning } = parseEntry(JSON.stringify(e), 'entries/tracegate/a.json');
    expect(parsed).toBeUndefined();
    expect(warning).toMatch(
      /^entries\/tracegate\/a\.json is not a readable entry \(results\.schema: /,
    );
  });
});
