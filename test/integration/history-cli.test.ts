import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyIndexSchema } from '../../src/contracts/history.js';
import { resultsSchema } from '../../src/contracts/results.js';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('the CLI tracks scores per commit in a history directory', () => {
  let endpoint: RunningServer;
  beforeAll(async () => {
    await requireDocker();
    endpoint = await startHeuristicServer();
  });
  afterAll(() => endpoint.close());

  it('records each commit, compares with the parent entry, and draws the dashboard', async () => {
    const work = tempDir('tg-history-');
    const history = join(work, 'history');
    const run = (out: string, ...extra: string[]) =>
      runCli([
        'run',
        '--instances',
        FIXTURE_SUITE,
        '--endpoint',
        endpoint.url,
        '--model',
        HEURISTIC_MODEL,
        '--cache',
        join(work, 'cache'),
        '--out',
        join(work, out),
        '--history',
        history,
        ...extra,
      ]);

    const first = await run('out-a', '--commit', A);
    expect(first.stderr).not.toMatch(/^tracegate: /m);
    expect(first.stderr).toMatch(/a run with --history DIR --commit SHA records one/);
    expect(first.stderr).toContain(
      `Recorded tracegate @ ${A.slice(0, 12)} in directory ${history}`,
    );
    expect(existsSync(join(history, 'entries', 'tracegate', `${A}.json`))).toBe(true);

    const second = await run('out-b', '--commit', B, '--parent', A);
    expect(second.stderr).not.toMatch(/^tracegate: /m);
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(work, 'out-b', 'results.json'), 'utf8')),
    );
    const comparison = results.comparison as { verdict: string; baseline?: { source: string } };
    expect(comparison.verdict).not.toBe('no-baseline');
    expect(comparison.baseline?.source).toMatch(new RegExp(`${A.slice(0, 7)}.*parent`));
    expect(second.stdout).toMatch(/Compared with .* — history: a{7}/);

    const index = historyIndexSchema.parse(
      JSON.parse(readFileSync(join(history, 'index.json'), 'utf8')),
    );
    expect(index.rows.map((r) => r.commit)).toEqual([A, B]);
    expect(readFileSync(join(history, 'index.html'), 'utf8')).toContain(B.slice(0, 7));

    const page = join(work, 'dash.html');
    const dash = await runCli(['dashboard', '--history', history, '--out', page]);
    expect(dash.code).toBe(0);
    expect(dash.stdout).toContain(`Wrote ${page} (2 entries)`);
    expect(readFileSync(page, 'utf8')).toMatch(/<svg/);

    const bad = await run('out-c', '--commit', 'not-a-sha');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--commit must be a lowercase commit sha, got "not-a-sha"/);
  }, 300_000);
});
