import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import type { InstanceRecord, Results } from '../../src/contracts/results.js';
import { tempDir } from '../helpers/cli.js';
import { bigSuite } from '../helpers/big-suite.js';
import { fakeBackend, flags, SOURCE } from '../helpers/fake-engines.js';
import { FaultyModelServer } from '../helpers/model-server.js';

/**
 * Resume: a run stopped half-way (the matrix job cancelled, the runner lost, Ctrl-C) and run
 * again with the same inputs and cache sends only the requests it had not had answered — the
 * replies it got are in the response cache, keyed by endpoint, model, revision, settings and
 * prompt — and ends with the results of a run that was never stopped. Counted at a real HTTP
 * server on loopback; the harvest is the fake tracer (the oracles are cached after the first run).
 */
describe('a stopped run, run again', () => {
  const suite = bigSuite(24, 8);
  /** n = the id's length, as the fake tracer answers; wrong on every third item. */
  const server = new FaultyModelServer((prompt) => {
    const id = /What is n for ([\w.@#-]+)\?/.exec(prompt)?.[1] ?? '';
    return `{"n": ${Number(id.slice(-2)) % 3 ? id.length : id.length + 1}}`;
  });
  let url = '';
  beforeAll(async () => {
    url = await server.start();
  });
  afterAll(() => server.stop());

  const engines: Engines = {
    backend: () => fakeBackend(),
    sources: { resolve: async () => SOURCE },
  };
  const run = async (dir: string, signal?: AbortSignal) => {
    const said: string[] = [];
    const code = await cli(
      [
        'run',
        ...flags({
          instances: suite,
          endpoint: url,
          model: 'm',
          'model-revision': 'ckpt-7',
          concurrency: '1',
          cache: join(dir, 'cache'),
          out: join(dir, 'out'),
          backend: 'local',
          preflight: 'false',
        }),
      ],
      { stdout: () => {}, stderr: (t) => said.push(t), env: {} },
      signal ? { signal } : {},
      engines,
    );
    return { code, said: said.join('\n') };
  };
  /** Replies in a run's response cache: one line each in its append-only logs. */
  const replies = (dir: string): number => {
    const logs = join(dir, 'cache', 'responses', 'log');
    if (!existsSync(logs)) return 0;
    return readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), 'utf8').split('\n').filter(Boolean).length)
      .reduce((a, b) => a + b, 0);
  };
  const read = (dir: string): Results =>
    JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as Results;
  const answers = (r: Results) =>
    r.instances.map((i: InstanceRecord) => [i.id, i.correct, i.parsed, i.error, i.oracle]);

  it('sends only the missing requests and ends with the uninterrupted run’s results', async () => {
    const whole = tempDir('tg-resume-whole-');
    server.requests = 0;
    expect((await run(whole)).code).toBe(0);
    const total = server.requests;
    expect(total).toBe(24);

    const dir = tempDir('tg-resume-');
    const stop = new AbortController();
    server.requests = 0;
    const waiting = setInterval(() => {
      if (server.requests >= 12) stop.abort('SIGTERM');
    }, 1);
    const first = await run(dir, stop.signal).finally(() => clearInterval(waiting));
    expect(first.code).toBe(130);
    const stopped = read(dir);
    expect(stopped.incomplete?.missing.length).toBeGreaterThan(0);
    const kept = stopped.instances.filter((r) => r.scored).length;
    expect(kept).toBeGreaterThanOrEqual(11);
    expect(kept).toBeLessThan(24);
    // The request in flight when the run stopped landed before the run returned (it waits for what
    // it paid for): every request the server got has its reply in the cache, with no wait here.
    const askedBefore = server.requests;
    expect(replies(dir)).toBe(askedBefore);

    server.requests = 0;
    const again = await run(dir);
    expect(again.code).toBe(0);
    // Every reply got before the stop (the one in flight too, once it landed) came from the
    // cache: across the two runs each item was asked exactly once.
    expect(server.requests + askedBefore).toBe(total);
    expect(server.requests).toBeLessThanOrEqual(total - kept);
    const resumed = read(dir);
    expect(resumed.incomplete).toBeUndefined();
    expect(answers(resumed)).toEqual(answers(read(whole)));
    expect(resumed.summary.byKind).toEqual(read(whole).summary.byKind);
    expect(resumed.instances.filter((r) => r.cached).length).toBe(askedBefore);
  });
});
