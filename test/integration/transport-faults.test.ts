import { EndpointUnavailableError } from '../../src/errors.js';
import { TimeBudget } from '../../src/adapters/model/budget.js';
import type { ClientConfig } from '../../src/adapters/model/factory.js';
import { runPool } from '../../src/stages/query/pool.js';
import { FaultyModelServer, type Fault, testClient } from '../helpers/model-server.js';
import type { ModelClient } from '../../src/contracts/model.js';
import { ModelRequestError, ModelResponseError } from '../../src/contracts/model.js';

const fast = { timeoutMs: 500, retries: 6, backoffMs: 5, maxWaitMs: 50 };
const client = (endpoint: string, extra: Partial<ClientConfig> = {}): ModelClient =>
  testClient(endpoint, { ...fast, ...extra });
const ask = (c: ModelClient, text: string) => c.complete([{ role: 'user', content: text }]);

async function withServer<T>(
  server: FaultyModelServer,
  f: (url: string) => Promise<T>,
): Promise<T> {
  try {
    return await f(await server.start());
  } finally {
    await server.stop();
  }
}

describe('model clients over real HTTP with injected faults', () => {
  it('survives every transient fault in turn and returns the real answer', async () => {
    const faults: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503, retryAfter: '0' },
      { kind: 'reset' },
      { kind: 'hang' },
      { kind: 'stall' },
      { kind: 'html' },
      { kind: 'truncated-json' },
      { kind: 'empty-choices' },
    ];
    const server = new FaultyModelServer(
      (p) => `echo:${p}`,
      (n) => faults[n - 1],
    );
    await withServer(server, async (url) => {
      const completion = await ask(client(url, { retries: faults.length }), 'hello');
      expect(completion.text).toBe('echo:hello');
      expect(completion.retries).toBe(faults.length);
      expect(server.requests).toBe(faults.length + 1);
    });
  });

  it('waits as long as Retry-After says on a 429', async () => {
    const server = new FaultyModelServer(
      () => 'ok',
      (n) => (n === 1 ? { kind: 'status', status: 429, retryAfter: '1' } : undefined),
    );
    await withServer(server, async (url) => {
      const started = Date.now();
      await ask(client(url, { maxWaitMs: 5000 }), 'q');
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });
  });

  it("fails fast on a 400 with the server's message", async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'status', status: 400, body: '{"error":{"message":"context too long"}}' }),
    );
    await withServer(server, async (url) => {
      const c = client(url);
      await expect(ask(c, 'q')).rejects.toThrow(ModelRequestError);
      await expect(ask(c, 'q')).rejects.toThrow(/context too long/);
      expect(server.requests).toBe(2);
    });
  });

  it('gives up on a permanently failing endpoint with EndpointUnavailableError naming it', async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'status', status: 503 }),
    );
    await withServer(server, async (url) => {
      const error = await ask(client(url, { retries: 2 }), 'q').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EndpointUnavailableError);
      expect((error as Error).message).toContain(url);
      expect((error as Error).message).toMatch(/HTTP 503.*after 3 attempt/);
      expect(server.requests).toBe(3);
    });
  });

  it('stops at the total time budget even while retries remain', async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'hang' }),
    );
    await withServer(server, async (url) => {
      const started = Date.now();
      const c = client(url, { retries: 20, timeoutMs: 10_000, budget: new TimeBudget(600) });
      await expect(ask(c, 'q')).rejects.toThrow(/time budget of 0.6s/);
      // Without the budget the first attempt alone would wait its 10 s timeout.
      expect(Date.now() - started).toBeLessThan(9000);
    });
  });

  it('gives identical answers with ~30% transient faults as without, under concurrency', async () => {
    const kinds: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 500 },
      { kind: 'reset' },
      { kind: 'html' },
      { kind: 'empty-choices' },
      { kind: 'truncated-json' },
    ];
    // Deterministic schedule: every request whose number is ≡ 1, 4 or 7 mod 10 fails.
    const faulty = new FaultyModelServer(
      (p) => `answer-${p}`,
      (n) => ([1, 4, 7].includes(n % 10) ? kinds[n % kinds.length] : undefined),
    );
    const clean = new FaultyModelServer((p) => `answer-${p}`);
    const prompts = Array.from({ length: 50 }, (_, i) => `q${i}`);
    const collect = (server: FaultyModelServer) =>
      withServer(server, async (url) => {
        const c = client(url);
        const answers: string[] = [];
        await runPool(prompts, 8, async (p, i) => {
          answers[i] = (await ask(c, p)).text;
        });
        return answers;
      });
    const withFaults = await collect(faulty);
    const without = await collect(clean);
    expect(withFaults).toEqual(without);
    expect(faulty.requests).toBeGreaterThan(60);
  });
});

describe('bad replies and bad configuration', () => {
  it('abandons a 50 MB body after the size limit and classifies it, without retrying', async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'huge', bytes: 50 * 1024 * 1024 }),
    );
    await withServer(server, async (url) => {
      const error = await ask(client(url, { timeoutMs: 10_000 }), 'q').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelResponseError);
      expect((error as ModelResponseError).errorClass).toBe('response_too_large');
      expect(server.requests).toBe(1);
    });
  });

  it('decodes non-UTF-8 bytes leniently instead of failing the reply', async () => {
    const body = Buffer.concat([
      Buffer.from('{"choices":[{"message":{"content":"{\\"v\\": \\"caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('\\"}"},"finish_reason":"stop"}]}'),
    ]);
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'bytes', body }),
    );
    await withServer(server, async (url) => {
      const completion = await ask(client(url), 'q');
      expect(completion.text).toBe('{"v": "caf\uFFFD\uFFFD"}');
    });
  });

  it('says a rejected API key is the key, and never prints it (even when the server echoes it)', async () => {
    const server = new FaultyModelServer(() => 'x', undefined, { apiKey: 'right-key' });
    await withServer(server, async (url) => {
      const secret = 'sk-very-secret-123';
      const error = await ask(client(url, { apiKey: secret }), 'q').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelRequestError);
      const message = (error as Error).message;
      expect(message).toMatch(/refused the API key \(HTTP 401/);
      expect(message).toContain('Incorrect API key provided: ***');
      expect(message).not.toContain(secret);
      expect(server.requests).toBe(1);
    });
  });

  it("surfaces an unknown model's 404 with the server's message verbatim", async () => {
    const server = new FaultyModelServer(() => 'x', undefined, { models: ['served'] });
    await withServer(server, async (url) => {
      await expect(ask(client(url, { model: 'ghost' }), 'q')).rejects.toThrow(
        'The model `ghost` does not exist.',
      );
    });
  });
});
