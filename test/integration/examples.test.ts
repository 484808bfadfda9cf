import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runAction } from '../helpers/action.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FakeGitHub } from '../helpers/github-server.js';
import { closedPort } from '../helpers/loopback-endpoint.js';
import { lateStack, type Stack } from '../helpers/late-stack.js';

/**
 * Every example workflow works as copied: its gate step — the Action's entry (dist/index.js) with
 * the step's own inputs — against a loopback server that comes up late, the way its serving stack
 * does (vLLM opens its port only once loaded; llama.cpp answers 503 while loading; a hosted
 * service scaled to zero answers 503 and wants its key). The harvest is real (Docker).
 *
 * What the test changes in a step, and only that: the endpoint's host and port (the loopback
 * server's), the suite (the fixture suite instead of the bundle, so `sample` and `top-up` are
 * unset), the cache, out and base image (this machine's), and the values of `${{ }}` expressions,
 * each from a table below (an expression the table does not know fails the test).
 */

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');

/** How each example's server starts: its stack and how late it answers. */
const SERVERS: Record<string, Stack> = {
  'tracegate-gate.yml': 'vllm',
  'gpu-vllm.yml': 'vllm',
  'cpu-llama-cpp.yml': 'llama.cpp',
  'remote-endpoint.yml': 'remote',
};
const UP_AFTER_MS = 4000;
const KEY = 'sk-live-3f9a0c1d2e4b5a6978';
const SHA = 'feedc0de';

interface Step {
  uses?: string;
  with?: Record<string, string | number | boolean>;
}
interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}

/** The workflow's tracegate steps. */
function tracegateSteps(file: string): Step[] {
  const workflow = parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Workflow;
  return Object.values(workflow.jobs)
    .flatMap((job) => job.steps)
    .filter((s) => /^tracegate\/tracegate@v\d+$/.test(s.uses ?? ''));
}

/** `${{ expr }}` replaced from `known`; an expression it does not know fails the test. */
function resolve(file: string, input: string, value: string, known: Record<string, string>) {
  return value.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    if (expr in known) return known[expr]!;
    throw new Error(`${file}: input ${input} holds \${{ ${expr} }}, which this test cannot give`);
  });
}

describe('the example workflows, as copied', () => {
  const github = new FakeGitHub();
  const work = tempDir('tg-examples-');
  let env: Record<string, string>;

  beforeAll(async () => {
    await requireDocker();
    const apiUrl = await github.start();
    const event = join(work, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({
        pull_request: { number: 11, head: { sha: SHA } },
        repository: { name: 'models', owner: { login: 'acme' } },
      }),
    );
    env = {
      GITHUB_API_URL: apiUrl,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: 'acme/models',
      GITHUB_SHA: 'mergec0de',
    };
  });
  afterAll(() => github.stop());

  it('every workflow in examples/ parses, and every gate step is covered here', () => {
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.yml'));
    const gated = files.filter((f) => tracegateSteps(f).some((s) => !s.with?.mode));
    expect(gated.sort()).toEqual(Object.keys(SERVERS).sort());
    // The report workflow posts a fork's results: its one step is the Action in report mode.
    expect(tracegateSteps('tracegate-report.yml').map((s) => s.with)).toEqual([{ mode: 'report' }]);
    // Every input a step gives is one the Action declares.
    const action = parse(readFileSync(join(EXAMPLES, '..', 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const declared = new Set(Object.keys(action.inputs));
    for (const file of files)
      for (const step of tracegateSteps(file))
        for (const input of Object.keys(step.with ?? {}))
          expect(`${file}: ${input}`).toBe(
            declared.has(input) ? `${file}: ${input}` : `${file}: ${input} (not an input)`,
          );
  });

  it.each(Object.entries(SERVERS))(
    '%s: the gate step waits for its %s server, then gates',
    async (file, stack) => {
      const [step] = tracegateSteps(file);
      const given = Object.fromEntries(
        Object.entries(step!.with ?? {}).map(([k, v]) => [k, String(v)]),
      );
      const port = await closedPort();
      const model = 'candidate-model';
      const known: Record<string, string> = {
        'github.sha': SHA,
        'secrets.TRACEGATE_API_KEY': KEY,
        'vars.TRACEGATE_ENDPOINT': `https://inference.example.com/v1`,
        'vars.TRACEGATE_MODEL': model,
      };
      const overridden = ['instances', 'cache', 'out', 'base-image', 'sample', 'top-up'];
      const inputs = Object.fromEntries(
        Object.entries(given)
          .filter(([k]) => !overridden.includes(k))
          .map(([k, v]) => [k, resolve(file, k, v, known)]),
      );
      // The step's endpoint, on the loopback server's port; its path as written (…/v1).
      const endpoint = new URL(inputs.endpoint!);
      expect(endpoint.pathname).toBe('/v1');
      const served = inputs.model!;
      const server = await lateStack({
        stack,
        port,
        model: served,
        upAfterMs: UP_AFTER_MS,
        ...(stack === 'remote' ? { key: KEY } : {}),
      });
      const started = Date.now();
      try {
        const run = await runAction(
          {
            ...inputs,
            endpoint: `http://127.0.0.1:${port}${endpoint.pathname}`,
            instances: FIXTURE_SUITE,
            cache: join(work, 'cache'),
            out: join(work, file),
            'base-image': 'tracegate/base:bookworm',
            'github-token': 'ghs_test_token',
          },
          env,
        );
        expect({ code: run.code, verdict: run.outputs.verdict }).toEqual({
          code: 0,
          verdict: 'no-baseline',
        });
        // It waited for the server (the step's own endpoint-wait), and only as long as it took.
        expect(run.stdout).toContain(`Waiting up to ${inputs['endpoint-wait']} s for the model`);
        expect(run.stdout).toMatch(/Model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 answered after/);
        const upAt = server.upAt()!;
        expect(upAt - started).toBeGreaterThanOrEqual(UP_AFTER_MS - 500);
        // No model request was spent on a server that said it was loading.
        const early = server.seen.filter((r) => r.status !== 200);
        if (stack === 'vllm') expect(early).toEqual([]);
        if (stack === 'llama.cpp') {
          expect(early.length).toBeGreaterThan(0);
          expect(early.every((r) => r.path === '/health')).toBe(true);
        }
        if (stack === 'remote') {
          // No health route: the model list and the tiny request decided, with the key each time.
          expect(early.length).toBeGreaterThan(0);
          expect(early.every((r) => r.status === 503 || r.path === '/health')).toBe(true);
          expect(server.seen.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
          // Masked: the runner hides it everywhere once told; nothing else prints it.
          const lines = run.stdout.split('\n').filter((l) => l.includes(KEY));
          expect(lines).toEqual([`::add-mask::${KEY}`]);
        }
        // Then every question was asked of the served model.
        expect(
          server.seen.filter((r) => r.path === '/v1/chat/completions' && r.status === 200).length,
        ).toBeGreaterThan(1);
        expect(github.comments.get(11)?.length).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    },
    300_000,
  );
});
