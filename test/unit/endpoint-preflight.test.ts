import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PREFLIGHT_MAX_TOKENS, PREFLIGHT_PROMPT } from '../../src/adapters/model/preflight.js';
import { runAgainst } from '../helpers/preflight-run.js';
import { FaultyModelServer } from '../helpers/model-server.js';
import { closedPort, endpoint, vllm } from '../helpers/loopback-endpoint.js';

/**
 * The endpoint preflight through the CLI door, against real loopback HTTP
 * servers: before any harvest, a dead server, a wrong URL, model or key, or
 * a route that fails each ends the run in seconds with a message that says
 * what to do (docs/errors.md), and the harvest backend is never created.
 * When the check passes, the run goes on through the same fake harvest.
 */

/** `tracegate run` against `url`, the harvest faked (helpers/preflight-run.ts). */
const run = (url: string, ...extra: string[]) => runAgainst(url, extra);

const DONE = ' Checked before any harvest: nothing ran.';

describe('the endpoint preflight, before any harvest', () => {
  it('passes a good endpoint with one list and one tiny request, then runs', async () => {
    const server = await endpoint(vllm(['qwen-7b']));
    try {
      const { code, harvested, stderr } = await run(`${server.root}/v1`);
      expect(code).toBe(0);
      expect(harvested).toBe(true);
      expect(stderr).toMatch(
        new RegExp(
          `^Model endpoint ${server.root}/v1: a 4-token request to qwen-7b answered in \\d+ ms ` +
            `\\(${server.root}/v1/models lists it\\)\\.$`,
          'm',
        ),
      );
      const [list, ask] = server.seen;
      expect([list!.method, list!.path, ask!.method, ask!.path]).toEqual([
        'GET',
        '/v1/models',
        'POST',
        '/v1/chat/completions',
      ]);
      expect(ask!.body).toMatchObject({
        model: 'qwen-7b',
        max_tokens: PREFLIGHT_MAX_TOKENS,
        messages: [{ role: 'user', content: PREFLIGHT_PROMPT }],
      });
      // Then the five real questions, each once.
      expect(server.seen).toHaveLength(7);
    } finally {
      await server.close();
    }
  });

  it('cuts a pasted /chat/completions back to the API base, with a notice', async () => {
    const server = await endpoint(vllm(['qwen-7b']));
    try {
      const pasted = `${server.root}/v1/chat/completions`;
      const { code, stderr, dir } = await run(pasted);
      expect(code).toBe(0);
      expect(stderr).toContain(
        `warning: The endpoint ${pasted} ends in the route /chat/completions, which tracegate ` +
          `adds itself: using the API base ${server.root}/v1 (give that as the endpoint to ` +
          'silence this notice).',
      );
      expect(new Set(server.seen.map((r) => r.path))).toEqual(
        new Set(['/v1/models', '/v1/chat/completions']),
      );
      const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
      expect(results.model.endpoint).toBe(`${server.root}/v1`);
    } finally {
      await server.close();
    }
  });

  it('sends a request again once when the connection was reset (a stale kept-alive socket), not more', async () => {
    let resets = 0;
    const flaky = vllm(['qwen-7b']);
    const server = await endpoint((r) =>
      r.method === 'GET' && resets++ === 0 ? 'reset' : flaky(r),
    );
    try {
      const { code, harvested } = await run(`${server.root}/v1`);
      expect(code).toBe(0);
      expect(harvested).toBe(true);
      expect(server.seen.filter((r) => r.method === 'GET')).toHaveLength(2);
    } finally {
      await server.close();
    }
    const dead = await endpoint(() => 'reset');
    try {
      const { code, harvested, last } = await run(`${dead.root}/v1`);
      expect(code).toBe(3);
      expect(harvested).toBe(false);
      expect(last).toMatch(/connection reset/);
      expect(dead.seen).toHaveLength(2); // the list twice, never the request
    } finally {
      await dead.close();
    }
  });

  it('a dead server fails in seconds, naming the cause (exit 3)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, last, ms, harvested } = await run(url);
    expect(code).toBe(3);
    expect(last).toBe(
      `tracegate: Model endpoint ${url} is unreachable: connection refused (ECONNREFUSED: ` +
        `nothing listens there) on GET ${url}/models. Start the server, or give --endpoint its ` +
        `API base URL (e.g. http://127.0.0.1:8000/v1).${DONE}`,
    );
    expect(harvested).toBe(false);
    expect(ms).toBeLessThan(5000);
  });

  it('a host that does not resolve fails naming the DNS lookup (exit 3)', async () => {
    const url = 'http://tracegate-no-such-host.invalid/v1';
    const { code, last, harvested } = await run(url);
    expect(code).toBe(3);
    expect(last).toMatch(
      new RegExp(
        `^tracegate: Model endpoint ${url} is unreachable: DNS lookup failed \\((ENOTFOUND|EAI_AGAIN): ` +
          `the host name does not resolve\\) on GET ${url}/models\\. `,
      ),
    );
    expect(harvested).toBe(false);
  });

  it('a server that never answers fails within the preflight’s short timeout (exit 3)', async () => {
    const server = await endpoint(() => 'hang');
    try {
      const url = `${server.root}/v1`;
      const { code, last, ms, harvested } = await run(url, '--timeout', '1');
      expect(code).toBe(3);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} is unreachable: no answer within 1s on GET ` +
          `${url}/models. Start the server, or give --endpoint its API base URL ` +
          `(e.g. http://127.0.0.1:8000/v1).${DONE}`,
      );
      expect(harvested).toBe(false);
      expect(ms).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });

  it('a 404 on a base without /v1 suggests the /v1 base (exit 2: configuration)', async () => {
    const server = await endpoint(vllm(['qwen-7b']));
    try {
      const { code, last, harvested } = await run(server.root);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${server.root} answered HTTP 404 to POST ` +
          `${server.root}/chat/completions (Not Found): did you mean ${server.root}/v1? ` +
          `--endpoint is the API base URL, which ends in /v1 on most servers.${DONE}`,
      );
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a model the server does not serve lists the names it serves, at most ten (exit 2)', async () => {
    const served = Array.from({ length: 12 }, (_, i) => `model-${i}`);
    const server = await endpoint(vllm(served));
    try {
      const url = `${server.root}/v1`;
      const { code, last, harvested } = await run(url);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} does not serve the model "qwen-7b" (HTTP 404: The ` +
          'model `qwen-7b` does not exist). It serves ' +
          served
            .slice(0, 10)
            .map((n) => `"${n}"`)
            .join(', ') +
          ` and 2 more. Check --model.${DONE}`,
      );
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('without a model list, a 404 that names the model is about the model (exit 2)', async () => {
    const server = await endpoint((r) =>
      r.path === '/v1/chat/completions'
        ? {
            status: 404,
            body: { error: `model "${r.body?.model}" not found, try pulling it first` },
          }
        : { status: 404, body: 'page not found' },
    );
    try {
      const url = `${server.root}/v1`;
      const { code, last } = await run(url);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} does not serve the model "qwen-7b" (HTTP 404: model ` +
          `"qwen-7b" not found, try pulling it first). Check --model.${DONE}`,
      );
    } finally {
      await server.close();
    }
  });

  it('an endpoint that answers /models but 404s the completions route names the route (exit 2: configuration)', async () => {
    const server = await endpoint((r) =>
      r.path === '/v1/models'
        ? { status: 200, body: { data: [{ id: 'qwen-7b' }] } }
        : { status: 404, body: { detail: 'Not Found' } },
    );
    try {
      const url = `${server.root}/v1`;
      const { code, last, harvested } = await run(url);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} lists its models (${url}/models) but answered HTTP 404 ` +
          `to POST ${url}/chat/completions (Not Found): it does not serve the /chat/completions ` +
          'route. Check --api (openai-chat posts to /chat/completions, openai-completions to ' +
          `/completions, anthropic to /messages) and --endpoint.${DONE}`,
      );
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('an endpoint that answers /models but fails the completions route says so (exit 3)', async () => {
    const server = await endpoint(vllm(['qwen-7b'], 500));
    try {
      const url = `${server.root}/v1`;
      const { code, last, harvested } = await run(url);
      expect(code).toBe(3);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} lists its models but its /chat/completions route ` +
          `failed (POST ${url}/chat/completions: HTTP 500: Internal Server Error). The server ` +
          'is running but cannot answer: look at its log (a model still loading, out of ' +
          `memory), then run again.${DONE}`,
      );
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('an endpoint that answers /models but never the completions route says the route hangs (exit 3)', async () => {
    const server = await endpoint((r) => (r.method === 'GET' ? vllm(['qwen-7b'])(r) : 'hang'));
    try {
      const url = `${server.root}/v1`;
      const { code, last, ms, harvested } = await run(url, '--timeout', '1');
      expect(code).toBe(3);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} lists its models but its /chat/completions route ` +
          `failed (POST ${url}/chat/completions: no answer within 1s). The server is running ` +
          `but cannot answer: look at its log (a model still loading, out of memory), then run ` +
          `again.${DONE}`,
      );
      expect(harvested).toBe(false);
      expect(ms).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });

  it('a 200 that is not a reply of the protocol names the protocol (exit 2: configuration)', async () => {
    const server = await endpoint(() => ({ status: 200, body: { status: 'ok' } }));
    try {
      const url = `${server.root}/v1`;
      const { code, last, harvested } = await run(url);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} answered POST ${url}/chat/completions, but not with an ` +
          `openai-chat reply (reply has no choices). Check --api and --endpoint.${DONE}`,
      );
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('a refused key says so without printing it (exit 2)', async () => {
    const key = 'sk-live-0123456789abcdef';
    const server = await endpoint(() => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${key}.` } },
    }));
    try {
      const url = `${server.root}/v1`;
      const { code, last, stderr, harvested } = await run(url, '--api-key', key);
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} refused the API key (HTTP 401 from ` +
          `${url}/chat/completions): Incorrect API key provided: ***. Check --api-key.${DONE}`,
      );
      expect(stderr).not.toContain(key);
      expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
      expect(harvested).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('speaks each protocol: Anthropic lists /v1/models with its headers and asks /v1/messages', async () => {
    const server = await endpoint((r) => {
      if (r.path === '/v1/models?limit=1000')
        return { status: 200, body: { data: [{ id: 'claude-x', type: 'model' }] } };
      if (r.path === '/v1/messages')
        return {
          status: 404,
          body: { type: 'error', error: { type: 'not_found_error', message: 'model: qwen-7b' } },
        };
      return { status: 404, body: {} };
    });
    try {
      const url = `${server.root}/v1`;
      const { code, last } = await run(url, '--api', 'anthropic', '--api-key', 'k-anthropic');
      expect(code).toBe(2);
      expect(last).toBe(
        `tracegate: Model endpoint ${url} does not serve the model "qwen-7b" (HTTP 404: ` +
          `model: qwen-7b). It serves "claude-x". Check --model.${DONE}`,
      );
      expect(server.seen[0]!.headers).toMatchObject({
        'x-api-key': 'k-anthropic',
        'anthropic-version': '2023-06-01',
      });
      expect(server.seen[1]!.body).toMatchObject({ max_tokens: PREFLIGHT_MAX_TOKENS });
    } finally {
      await server.close();
    }
  });

  it('a fault-injecting test server counts the preflight apart: its schedule still means the queries', async () => {
    const server = new FaultyModelServer(
      (prompt) => {
        const id = /What is n for ([\w.-]+)\?/.exec(prompt)?.[1] ?? '';
        return `{"n": ${id.length}}`;
      },
      (n) => (n === 1 ? { kind: 'status', status: 503 } : undefined),
    );
    const url = await server.start();
    try {
      const { code } = await run(url, '--concurrency', '1', '--retries', '1');
      expect(code).toBe(0);
      expect({ requests: server.requests, preflights: server.preflights }).toEqual({
        requests: 6, // five questions, the first one twice (its injected 503, then the retry)
        preflights: 2, // GET /models (a 404 there) and the tiny request
      });
    } finally {
      await server.stop();
    }
  });

  it('--preflight false skips the check: the harvest runs first, the dead server is found after it', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, harvested, last } = await run(url, '--preflight', 'false', '--retries', '0');
    expect(harvested).toBe(true);
    expect(code).toBe(3);
    expect(last).toMatch(/^tracegate: Model endpoint .* is unavailable: .*ECONNREFUSED/);
  });
});
