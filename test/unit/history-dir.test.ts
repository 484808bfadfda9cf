import {
  existsSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
  mkdirSync,
  symlinkSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirHistory } from '../../src/adapters/history/dir.js';
import { MAX_ENTRY_BYTES } from '../../src/contracts/history.js';
import { HistoryVersionError } from '../../src/adapters/history/errors.js';
import { UsageError } from '../../src/errors.js';
import { at, entry, sha, warnings } from '../helpers/history.js';

const temp = () => mkdtempSync(join(tmpdir(), 'tg-history-'));

describe('DirHistory', () => {
  it('writes index.json and entries/<name>/<commit>.json, and reads them back', async () => {
    const dir = temp();
    const { warn, seen } = warnings();
    const history = new DirHistory(dir, warn);
    expect(await history.index()).toEqual([]);
    const e = entry('c1', { branch: 'main', verdict: 'pass' });
    const outcome = await history.record(e);
    expect(outcome.location).toBe(`directory ${dir}: entries/tracegate/${e.commit}.json`);
    expect(existsSync(join(dir, 'index.json'))).toBe(true);
    expect(
      JSON.parse(readFileSync(join(dir, 'entries', 'tracegate', `${e.commit}.json`), 'utf8')),
    ).toEqual(e);
    const rows = await history.index();
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'tracegate',
        commit: e.commit,
        branch: 'main',
        verdict: 'pass',
        accuracy: 0.5714,
        byKind: { S2_Loops: 0.5, S5_Exceptions: 0.6667 },
        promptVersion: 'p3',
        scorer: 'tracegate-strict@1',
      }),
    ]);
    expect(await history.entry('tracegate', e.commit)).toEqual(e);
    expect(await history.entry('tracegate', sha('absent'))).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it('re-recording a commit replaces its row and entry', async () => {
    const history = new DirHistory(temp(), () => {});
    await history.record(entry('c1', { verdict: 'fail' }));
    await history.record(entry('c1', { verdict: 'pass', recordedAt: at(5) }));
    const rows = await history.index();
    expect(rows.map((r) => r.verdict)).toEqual(['pass']);
    expect((await history.entry('tracegate', sha('c1')))?.verdict).toBe('pass');
  });

  it('applies retention: the dropped entries are deleted from the directory', async () => {
    const dir = temp();
    const history = new DirHistory(dir, () => {});
    for (let i = 1; i <= 4; i++) await history.record(entry(`c${i}`, { recordedAt: at(i) }));
    const outcome = await history.record(entry('c5', { recordedAt: at(5) }), {
      retention: { entries: 2 },
    });
    expect(outcome.dropped.map((r) => r.commit)).toEqual([sha('c1'), sha('c2'), sha('c3')]);
    expect((await history.index()).map((r) => r.commit)).toEqual([sha('c4'), sha('c5')]);
    expect(existsSync(join(dir, 'entries', 'tracegate', `${sha('c1')}.json`))).toBe(false);
    expect(existsSync(join(dir, 'entries', 'tracegate', `${sha('c4')}.json`))).toBe(true);
  });

  it('writes extra files from the merged rows (e.g. the dashboard)', async () => {
    const dir = temp();
    const history = new DirHistory(dir, () => {});
    await history.record(entry('c1'));
    await history.record(entry('c2', { recordedAt: at(1) }), {
      files: (rows) => ({ 'index.html': `<p>${rows.length} rows</p>` }),
    });
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe('<p>2 rows</p>');
    await expect(
      history.record(entry('c3'), { files: () => ({ '../escape.html': 'x' }) }),
    ).rejects.toThrow(UsageError);
  });

  it('skips a corrupt index and a corrupt entry with warnings naming them', async () => {
    const dir = temp();
    const { warn, seen } = warnings();
    const history = new DirHistory(dir, warn);
    writeFileSync(join(dir, 'index.json'), '{not json');
    mkdirSync(join(dir, 'entries', 'tracegate'), { recursive: true });
    writeFileSync(join(dir, 'entries', 'tracegate', `${sha('c1')}.json`), '{"hello": 1}');
    expect(await history.index()).toEqual([]);
    expect(await history.entry('tracegate', sha('c1'))).toBeUndefined();
    expect(seen).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'index.json')} is not valid JSON`)),
      `${join(dir, 'entries', 'tracegate', `${sha('c1')}.json`)} is not a tracegate history entry (schema none): skipped.`,
    ]);
  });

  it('never reads an entry over its bound or one that is a link; refuses an index that is a link', async () => {
    const dir = temp();
    const { warn, seen } = warnings();
    const history = new DirHistory(dir, warn);
    await history.record(entry('c1'));
    const huge = join(dir, 'entries', 'tracegate', `${sha('c1')}.json`);
    truncateSync(huge, MAX_ENTRY_BYTES + 1); // sparse: 64 MiB + 1 byte that would be read whole
    expect(await history.entry('tracegate', sha('c1'))).toBeUndefined();
    const outside = join(temp(), 'secret.json');
    writeFileSync(outside, JSON.stringify(entry('c2')));
    symlinkSync(outside, join(dir, 'entries', 'tracegate', `${sha('c2')}.json`));
    expect(await history.entry('tracegate', sha('c2'))).toBeUndefined();
    expect(seen).toEqual([
      `${huge} is ${MAX_ENTRY_BYTES + 1} bytes, over the ${MAX_ENTRY_BYTES} read at most: skipped.`,
      `${join(dir, 'entries', 'tracegate', `${sha('c2')}.json`)} is a symbolic link, which is not followed here: skipped.`,
    ]);
    const linked = temp();
    symlinkSync(join(dir, 'index.json'), join(linked, 'index.json'));
    expect(() => DirHistory.open(linked, () => {})).toThrow(
      /--history .*: cannot read .*index\.json \(.*symbolic link/,
    );
  });

  it('refuses a directory written by a newer tracegate', async () => {
    const dir = temp();
    writeFileSync(join(dir, 'index.json'), '{"schema":"tracegate/history@3","rows":[]}');
    await expect(new DirHistory(dir, () => {}).index()).rejects.toThrow(HistoryVersionError);
  });

  it('never builds a path from a name or commit that is not one', async () => {
    const history = new DirHistory(temp(), () => {});
    expect(await history.entry('../..', sha('c1'))).toBeUndefined();
    expect(await history.entry('tracegate', '../../etc/passwd')).toBeUndefined();
    await expect(history.record({ ...entry('c1'), commit: '../x' })).rejects.toThrow(
      /Cannot record a history entry: commit: a lowercase hex commit sha/,
    );
  });
});
