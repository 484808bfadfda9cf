import { EndpointUnavailableError } from '../../src/errors.js';
import { ModelRequestError } from '../../src/query/client.js';
import { OpenAIChatClient } from '../../src/query/openai-chat.js';
import { runPool } from '../../src/query/pool.js';
import { FaultyModelServer, type Fault } from '../helpers/model-server.js';

const settings = { temperature: 0, maxTokens: 64 };
const fast = { timeoutMs: 500, retries: 6, backoffMs: 5, maxWaitMs: 50 };
const ask = (client: OpenAIChatClient, text: string) =>
  client.complete([{ role: 'user', content: text }]);

describe('OpenAI chat client over real HTTP with injected faults', () => {
  it('survives each transient fault and returns the real answer', async () => {
    const faults: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'reset' },
      { kind: 'hang' },
      { kind: 'html' },
    ];
    const server = new FaultyModelServer(
      (p) => `echo:${p}`,
      (n) => faults[n - 1],
    );
    const client = new OpenAIChatClient(await server.start(), 'm', settings, fast);
    try {
      const completion = await ask(client, 'hello');
      expect(completion.text).toBe('echo:hello');
      expect(completion.retries).toBe(faults.length);
      expect(server.requests).toBe(faults.length + 1);
    } finally {
      await server.stop();
    }
  });

  it("fails fast on a 400 with the server's message", async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'status', status: 400, body: '{"error":{"message":"context too long"}}' }),
    );
    const client = new OpenAIChatClient(await server.start(), 'm', settings, fast);
    try {
      await expect(ask(client, 'q')).rejects.toThrow(ModelRequestError);
      await expect(ask(client, 'q')).rejects.toThrow(/context too long/);
      expect(server.requests).toBe(2);
    } finally {
      await server.stop();
    }
  });

  it('gives up on a permanently failing endpoint with EndpointUnavailableError', async () => {
    const server = new FaultyModelServer(
      () => 'x',
      () => ({ kind: 'status', status: 503 }),
    );
    const url = await server.start();
    const client = new OpenAIChatClient(url, 'm', settings, { ...fast, retries: 2 });
    try {
      await expect(ask(client, 'q')).rejects.toThrow(EndpointUnavailableError);
      expect(server.requests).toBe(3);
    } finally {
      await server.stop();
    }
  });

  it('gives identical answers with ~30% transient faults as without, under concurrency', async () => {
    const kinds: Fault[] = [
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 500 },
      { kind: 'reset' },
      { kind: 'html' },
    ];
    // Deterministic schedule: every request whose number is ≡ 1, 4 or 7 mod 10 fails.
    const faulty = new FaultyModelServer(
      (p) => `answer-${p}`,
      (n) => ([1, 4, 7].includes(n % 10) ? kinds[n % kinds.length] : undefined),
    );
    const clean = new FaultyModelServer((p) => `answer-${p}`);
    const prompts = Array.from({ length: 50 }, (_, i) => `q${i}`);
    const collect = async (server: FaultyModelServer) => {
      const client = new OpenAIChatClient(await server.start(), 'm', settings, fast);
      const answers: string[] = [];
      await runPool(prompts, 8, async (p, i) => {
        answers[i] = (await ask(client, p)).text;
      });
      await server.stop();
      return answers;
    };
    const withFaults = await collect(faulty);
    const without = await collect(clean);
    expect(withFaults).toEqual(without);
    expect(faulty.requests).toBeGreaterThan(60);
  });
});
