import { join } from 'node:path';
import { EndpointUnavailableError } from '../../src/errors.js';
import type { CachedOracle } from '../../src/contracts/oracle.js';
import { DEFAULT_PROMPT_OPTIONS } from '../../src/stages/prompt/build.js';
import { summarizeQuery } from '../../src/stages/query/accounting.js';
import type { ClientConfig } from '../../src/adapters/model/factory.js';
import { DirResponseCache } from '../../src/adapters/stores/response-cache.js';
import { queryInstances } from '../../src/stages/query/stage.js';
import type { InstanceRecord } from '../../src/contracts/results.js';
import { summarize } from '../../src/stages/score/aggregate.js';
import { tempDir } from '../helpers/cli.js';
import { FaultyModelServer, type Fault, type Reply, testClient } from '../helpers/model-server.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';
import type { ModelClient } from '../../src/contracts/model.js';
import { withResponseCache } from '../../src/app/response-cache.js';

type Item = { loaded: LoadedInstance; entry: CachedOracle };

/** n instances "what does square(i) return?", with real test files on disk and known oracles. */
function squares(n: number): Item[] {
  const root = tempDir('tg-squares-');
  return Array.from({ length: n }, (_, i) => {
    const dir = join(root, `sq-${i}`);
    const testSource = `def test_sq():\n    assert square(${i}) == ${i * i}\n`;
    const question = `What does square(N) return for N=${i}?`;
    const template = { value: 'int' };
    return {
      loaded: {
        instance: {
          id: `sq-${String(i).padStart(2, '0')}`,
          kind: 'S3_ProgramState',
          environment: 'plain',
          tests: ['test_sq.py::test_sq'],
          target: { file: 'sq.py', function: 'square' },
          question,
          template_answer: template,
          query: {},
          timeout_seconds: 60,
          cwd: 'instance',
          expect_failure: false,
        },
        dir,
        contentHash: `h${i}`,
        environment: { name: 'plain', python: '3.11', packages: [] },
        environmentDir: 'environments',
        file: 'loops/instance.json',
      },
      entry: {
        oracle: {
          question_kind: 'S3_ProgramState',
          question,
          template_answer: template,
          oracle_answer: { value: i * i },
          meta: {
            instance_id: `sq-${i}`,
            instance_hash: `h${i}`,
            environment_digest: 'e',
            python: '3.11',
            tracer_version: 't',
            runs_agreed: 1,
            harvested_at: '2025-01-01T00:00:00Z',
          },
        },
        context: {
          file: 'sq.py',
          func: 'square',
          first_line: 1,
          source: 'def square(n):\n    return n * n\n',
          tests: [{ name: 'test_sq.py', source: testSource }],
        },
      },
    };
  });
}

/** A "model" that reads N from the prompt; wrong on every 4th, in assorted formats. */
function squaresModel(prompt: string): Reply {
  const n = Number(/N=(\d+)/.exec(prompt)?.[1]);
  const value = n % 4 === 0 ? n + 1 : n * n;
  if (n % 7 === 6) return "I'm sorry, I cannot answer that.";
  if (n % 3 === 0) return `Tracing it:\n\`\`\`json\n{"value": ${value}}\n\`\`\``;
  if (n % 5 === 0) return { content: `{"value": ${value}}`, reasoning: `n*n = ${value}` };
  return `<think>n is ${n}</think>{'value': ${value},}`;
}

const fast = { timeoutMs: 400, retries: 8, backoffMs: 5, maxWaitMs: 40 };
const clientFor = (endpoint: string, extra: Partial<ClientConfig> = {}): ModelClient =>
  testClient(endpoint, { ...fast, ...extra });

async function run(
  items: Item[],
  client: ModelClient,
  options: { samples?: number; concurrency?: number } = {},
): Promise<InstanceRecord[]> {
  const records: InstanceRecord[] = [];
  await queryInstances(
    items,
    client,
    {
      prompt: DEFAULT_PROMPT_OPTIONS,
      samples: options.samples ?? 1,
      concurrency: options.concurrency ?? 8,
    },
    (r) => records.push(r),
  );
  return records.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Records without what legitimately differs between two runs of the same answers. */
const comparable = (records: InstanceRecord[]) =>
  records.map(({ latencyMs: _l, retries: _r, cached: _c, ...rest }) => rest);

async function serving<T>(server: FaultyModelServer, f: (url: string) => Promise<T>): Promise<T> {
  try {
    return await f(await server.start());
  } finally {
    await server.stop();
  }
}

describe('the query stage against a loopback endpoint', () => {
  const items = squares(50);

  it('scores 50 instances identically with ~30% transient faults as without', async () => {
    const kinds: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503, retryAfter: '0' },
      { kind: 'reset' },
      { kind: 'stall' },
      { kind: 'html' },
      { kind: 'truncated-json' },
      { kind: 'empty-choices' },
    ];
    const faulty = new FaultyModelServer(squaresModel, (n) =>
      [1, 4, 7].includes(n % 10) ? kinds[n % kinds.length] : undefined,
    );
    const clean = new FaultyModelServer(squaresModel);
    const withFaults = await serving(faulty, (url) => run(items, clientFor(url)));
    const without = await serving(clean, (url) => run(items, clientFor(url)));

    expect(withFaults).toHaveLength(50);
    expect(comparable(withFaults)).toEqual(comparable(without));
    expect(summarize(withFaults)).toEqual({
      ...summarize(without),
      retries: expect.any(Number) as number,
    });
    const faults = faulty.requests - 50;
    expect(faults / faulty.requests).toBeGreaterThan(0.25);
    expect(summarize(withFaults).retries).toBe(faults);
    // The model's formats all parse; its wrong answers and refusals are counted as such.
    const summary = summarize(without);
    expect(summary.errors).toEqual({ refused: 7 });
    expect(summary.correct).toBe(50 - 13 - 7 + 2); // 13 multiples of 4, 7 refusals, 2 overlap
  });

  it('ends on a dead endpoint with an error naming it, keeping every answer obtained', async () => {
    const server = new FaultyModelServer(squaresModel, (n) =>
      n > 20 ? { kind: 'status', status: 503 } : undefined,
    );
    await serving(server, async (url) => {
      const kept: InstanceRecord[] = [];
      const error = await queryInstances(
        items,
        clientFor(url, { retries: 2 }),
        { prompt: DEFAULT_PROMPT_OPTIONS, samples: 1, concurrency: 4 },
        (r) => kept.push(r),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EndpointUnavailableError);
      expect((error as Error).message).toContain(url);
      expect(kept).toHaveLength(20);
      expect(new Set(kept.map((r) => r.id)).size).toBe(20);
    });
  });

  it('never serves one model revision the answers cached for another', async () => {
    const cache = new DirResponseCache(join(tempDir('tg-responses-'), 'responses'));
    const few = items.slice(0, 6);
    // One server address; the checkpoint behind it changes, as when a team redeploys.
    let sign = 1;
    const server = new FaultyModelServer(
      (p) => `{"value": ${Number(/N=(\d+)/.exec(p)?.[1]) * sign}}`,
    );
    const log: string[] = [];
    await serving(server, async (url) => {
      const through = (revision: string | undefined) =>
        withResponseCache(clientFor(url), cache, revision, (m) => log.push(m));

      const a = await run(few, through('sha-A'));
      expect(server.requests).toBe(6);

      sign = -1;
      const b = await run(few, through('sha-B'));
      expect(server.requests).toBe(12); // nothing of A's was reused
      expect(b.map((r) => r.parsed)).toEqual(few.map((_, i) => ({ value: -i || 0 })));
      expect(b.some((r) => r.cached)).toBe(false);

      // Re-running revision A (a re-run of a failed job) re-queries nothing.
      const again = await run(few, through('sha-A'));
      expect(server.requests).toBe(12);
      expect(comparable(again)).toEqual(comparable(a));
      expect(again.every((r) => r.cached)).toBe(true);

      // Without a revision the cache is off, and the log says so.
      await run(few, through(undefined));
      expect(server.requests).toBe(18);
      expect(log.join('\n')).toMatch(/response cache is off/);
    });
  });

  it('asks k samples, scores the majority (ties broken by answer, not arrival) and reports pass@k', async () => {
    const few = items.slice(1, 7); // N = 1..6
    const server = new FaultyModelServer((p, request) => {
      const n = Number(/N=(\d+)/.exec(p)?.[1]);
      const sample = Number(request.body.seed) - 100;
      const plans: (number | string)[][] = [
        [n * n, n * n, 0], // majority right
        [7, n * n, 0], // three-way tie: {"value":0} sorts first, so wrong; pass@3 still true
        [0, 0, 'junk'], // majority wrong, no sample right
      ];
      const v = plans[n % 3]![sample]!;
      return typeof v === 'number' ? `{"value": ${v}}` : v;
    });
    await serving(server, async (url) => {
      const client = clientFor(url, {
        settings: { temperature: 0.7, maxTokens: 64, seed: 100 },
      });
      const records = await run(few, client, { samples: 3, concurrency: 2 });
      expect(server.requests).toBe(18);
      const byN = (n: number) => records[n - 1]!;
      for (const n of [3, 6])
        expect(byN(n)).toMatchObject({ correct: true, samplesCorrect: 2, passAtK: true });
      for (const n of [1, 4])
        expect(byN(n)).toMatchObject({
          correct: false,
          parsed: { value: 0 },
          samplesCorrect: 1,
          passAtK: true,
        });
      for (const n of [2, 5])
        expect(byN(n)).toMatchObject({ correct: false, samplesCorrect: 0, passAtK: false });
      expect(records.every((r) => r.samples === 3 && r.tokensOut === 15)).toBe(true);
      const totals = summarizeQuery(records, client.identity, 3);
      expect(totals).toMatchObject({
        api: 'openai-chat',
        samples: 3,
        answered: 6,
        passAtK: 0.6667,
        tokensIn: 180,
      });
    });
  });

  it('records a per-instance rejection (400) and an oversized reply, and carries on', async () => {
    const server: FaultyModelServer = new FaultyModelServer(
      (p) => `{"value": ${Number(/N=(\d+)/.exec(p)?.[1]) ** 2}}`,
      (n): Fault | undefined =>
        n === 2
          ? { kind: 'status', status: 400, body: '{"error":{"message":"prompt is too long"}}' }
          : n === 4
            ? { kind: 'huge', bytes: 9 * 1024 * 1024 }
            : undefined,
    );
    await serving(server, async (url) => {
      const records = await run(items.slice(0, 6), clientFor(url, { timeoutMs: 5000 }), {
        concurrency: 1,
      });
      expect(records.map((r) => r.error)).toEqual([
        null,
        'request_rejected',
        null,
        'response_too_large',
        null,
        null,
      ]);
      expect(records[1]!.detail).toMatch(/prompt is too long/);
      expect(summarize(records).errors).toEqual({ request_rejected: 1, response_too_large: 1 });
    });
  });

  it('records a 200 whose body is no reply, on every retry, against its instance alone', async () => {
    // The request for N=3 (and each retry of it) gets `42`: valid JSON, no choices.
    const server: FaultyModelServer = new FaultyModelServer(
      (p) => `{"value": ${Number(/N=(\d+)/.exec(p)?.[1]) ** 2}}`,
      (n): Fault | undefined =>
        /N=3\b/.test(JSON.stringify(server.seen[n - 1]?.body))
          ? { kind: 'bytes', body: Buffer.from('42') }
          : undefined,
    );
    await serving(server, async (url) => {
      const records = await run(
        items.slice(0, 5),
        clientFor(url, { timeoutMs: 5000, retries: 2, backoffMs: 1 }),
        { concurrency: 1 },
      );
      expect(records.map((r) => r.error)).toEqual([null, null, null, 'malformed_response', null]);
      expect(records[3]!.detail).toMatch(/42.*no usable reply, 3 attempt/);
      expect(records.filter((r) => r.correct)).toHaveLength(4); // the others answered, the run went on
    });
  });
});
