import { runAgainst } from '../helpers/preflight-run.js';
import { closedPort, endpoint, vllm, type Reply, type Seen } from '../helpers/loopback-endpoint.js';

/**
 * `endpoint-wait`: a model server that is still starting is waited for — real loopback servers
 * that come up late, lie on their health route, or fail every completion — before any harvest.
 */
const run = (url: string, signal?: AbortSignal, ...extra: string[]) =>
  runAgainst(url, extra, signal);

/** vLLM as it serves once loaded, with a health route at the root. */
const loaded = (r: Seen): Reply =>
  r.path === '/health' ? { status: 200, body: {} } : vllm(['qwen-7b'])(r);

describe('endpoint-wait: a server still starting is waited for, before any harvest', () => {
  it('a server that comes up 3 s late is waited for, then the run goes on', async () => {
    const port = await closedPort();
    let server: Awaited<ReturnType<typeof endpoint>> | undefined;
    const late = setTimeout(() => void endpoint(loaded, port).then((s) => (server = s)), 3000);
    try {
      const done = await run(`http://127.0.0.1:${port}/v1`, undefined, '--endpoint-wait', '30');
      expect(done.code).toBe(0);
      expect(done.harvested).toBe(true);
      expect(done.stderr).toMatch(
        /Waiting up to 30 s for the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1/,
      );
      expect(done.stderr).toMatch(
        /Model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 answered after [3-9] s\./,
      );
      expect(done.ms).toBeGreaterThanOrEqual(3000);
    } finally {
      clearTimeout(late);
      await server?.close();
    }
  }, 40_000);

  it('without a wait (0, the CLI default) one attempt fails at once, exit 3', async () => {
    const port = await closedPort();
    const done = await run(`http://127.0.0.1:${port}/v1`);
    expect(done.code).toBe(3);
    expect(done.harvested).toBe(false);
    expect(done.stderr).not.toMatch(/Waiting up to/);
    expect(done.ms).toBeLessThan(5000);
  });

  it('a health route that says up decides nothing: the tiny request does, and the wait ends with its diagnosis', async () => {
    const server = await endpoint((r) =>
      r.path === '/health' ? { status: 200, body: {} } : vllm(['qwen-7b'], 500)(r),
    );
    try {
      const done = await run(`${server.root}/v1`, undefined, '--endpoint-wait', '3');
      expect(done.code).toBe(3);
      expect(done.harvested).toBe(false);
      expect(done.last).toMatch(
        /lists its models but its \/chat\/completions route failed \(POST .*: HTTP 500: Internal Server Error\).* \(still so after --endpoint-wait 3 s\)\. Checked before any harvest: nothing ran\.$/,
      );
      // It asked more than once: the wait polled the route that failed.
      expect(server.seen.filter((r) => r.path === '/v1/chat/completions').length).toBeGreaterThan(
        1,
      );
    } finally {
      await server.close();
    }
  }, 20_000);

  it('a health route that stays down costs no model request; the wait names it', async () => {
    const server = await endpoint((r) =>
      r.path === '/health' ? { status: 503, body: { detail: 'loading' } } : loaded(r),
    );
    try {
      const done = await run(`${server.root}/v1`, undefined, '--endpoint-wait', '2');
      expect(done.code).toBe(3);
      expect(done.last).toMatch(
        /did not answer within --endpoint-wait 2 s: http:\/\/127\.0\.0\.1:\d+\/health answers HTTP 503, not 200, yet\./,
      );
      expect(server.seen.filter((r) => r.path !== '/health')).toEqual([]);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('a wait that runs out with nothing listening says so: connection refused, exit 3', async () => {
    const port = await closedPort();
    const done = await run(`http://127.0.0.1:${port}/v1`, undefined, '--endpoint-wait', '2');
    expect(done.code).toBe(3);
    expect(done.harvested).toBe(false);
    expect(done.last).toContain(
      `did not answer within --endpoint-wait 2 s: nothing listens at 127.0.0.1:${port} yet ` +
        '(connection refused). Start the server',
    );
  }, 20_000);

  it('a configuration mistake ends the wait at once (exit 2): waiting cannot fix a wrong model', async () => {
    const server = await endpoint(vllm(['other-model']));
    try {
      const done = await run(`${server.root}/v1`, undefined, '--endpoint-wait', '60');
      expect(done.code).toBe(2);
      expect(done.ms).toBeLessThan(10_000);
      expect(done.last).toMatch(/does not serve the model "qwen-7b"/);
    } finally {
      await server.close();
    }
  }, 20_000);

  it('an interrupt during the wait ends it at once, before any harvest', async () => {
    const port = await closedPort();
    const stop = new AbortController();
    setTimeout(() => stop.abort('SIGINT'), 1500);
    const done = await run(`http://127.0.0.1:${port}/v1`, stop.signal, '--endpoint-wait', '120');
    expect(done.code).toBe(130);
    expect(done.harvested).toBe(false);
    expect(done.ms).toBeLessThan(10_000);
    expect(done.last).toMatch(/Interrupted by SIGINT while waiting for the model endpoint/);
  }, 20_000);
});
