import { forTerminal } from '../../src/stages/report/terminal.js';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ActionEnv } from '../../src/app/action/runner.js';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import { EndpointUnavailableError } from '../../src/errors.js';
import { run } from '../../src/doors/action/main.js';
import { noCacheStore } from '../../src/adapters/stores/cache-store.js';
import { tempDir } from '../helpers/cli.js';
import {
  engines,
  fakeBackend,
  fakeClient,
  flags,
  HEAD,
  options,
  PREVIOUS,
  SOURCE,
} from '../helpers/fake-engines.js';
import { ModelRequestError } from '../../src/contracts/model.js';

/**
 * The two doors onto one application: the CLI (`tracegate run`) and the
 * Action (main.ts `run`) driven with the same fake engines — a harvest
 * backend that answers every plan as the tracer would, a model that answers
 * from a table — and the same baseline and history. Both must write the same
 * report, and it has the trend whenever a history is given.
 */
/** The Action's runner as a fake: inputs, a pull_request event, and what it was told. */
function fakeActionEnv(inputs: Record<string, string>) {
  const said = {
    failed: [] as string[],
    outputs: {} as Record<string, unknown>,
    summary: '',
    log: [] as string[],
  };
  const env: ActionEnv = {
    context: {
      eventName: 'pull_request',
      sha: HEAD,
      ref: 'refs/pull/7/merge',
      payload: {
        pull_request: { number: 7, base: { ref: 'main', sha: PREVIOUS }, head: { sha: HEAD } },
      },
      repo: { owner: 'o', repo: 'r' },
      runId: 1,
    },
    input: (name) => inputs[name] ?? '',
    setSecret: () => {},
    env: {},
    info: (m) => said.log.push(m),
    warning: () => {},
    notice: () => {},
    setFailed: (m) => said.failed.push(m),
    // Groups go into the log as the runner's workflow commands would.
    startGroup: (name) => said.log.push(`::group::${name}`),
    endGroup: () => said.log.push('::endgroup::'),
    setOutput: (name, value) => (said.outputs[name] = value),
    summary: async (markdown) => {
      said.summary += markdown;
    },
    octokit: () => {
      throw new Error('no GitHub in this test');
    },
  };
  return { env, said };
}

/** Lines that name where this run's files are (each door writes to its own directory). */
const portable = (report: string, dir: string) => report.split(dir).join('<dir>');

describe('both doors call one application', () => {
  it('writes the same report from the CLI and the Action, with the trend from the history', async () => {
    const base = tempDir('tg-doors-');
    const io = { stdout: () => {}, stderr: () => {}, env: {} };
    // The baseline: a run recorded at PREVIOUS in a history directory, right on every item.
    const history = join(base, 'history');
    const recorded = await cli(
      ['run', ...flags({ ...options(join(base, 'b')), history, commit: PREVIOUS })],
      io,
      {},
      engines(() => true),
    );
    expect(recorded).toBe(0);
    const baselineFile = join(base, 'b', 'out', 'results.json');

    // The candidate, wrong on ids of odd length, through each door against that baseline.
    const candidate = engines((id) => id.length % 2 === 0);
    const cliDir = join(base, 'cli');
    const cliHistory = join(base, 'history-cli');
    cpSync(history, cliHistory, { recursive: true });
    const lines: string[] = [];
    const cliLog: string[] = [];
    const code = await cli(
      [
        'run',
        ...flags({ ...options(cliDir), history: cliHistory, baseline: baselineFile, commit: HEAD }),
        '--min-drop',
        '0.01',
      ],
      { ...io, stdout: (t) => lines.push(t), stderr: (t) => cliLog.push(t) },
      {},
      candidate,
    );

    const actionDir = join(base, 'action');
    const actionHistory = join(base, 'history-action');
    cpSync(history, actionHistory, { recursive: true });
    const { env, said } = fakeActionEnv({
      ...options(actionDir),
      history: actionHistory,
      baseline: baselineFile,
      'min-drop': '0.01',
      comment: 'true',
      'check-run': 'true',
      trend: '10',
    });
    await run({}, env, { cacheStore: noCacheStore, engines: candidate });

    const cliReport = readFileSync(join(cliDir, 'out', 'report.md'), 'utf8');
    const actionReport = readFileSync(join(actionDir, 'out', 'report.md'), 'utf8');
    // One rendering: the same words either way, and both with the trend of the history.
    expect(portable(actionReport, actionDir)).toBe(portable(cliReport, cliDir));
    expect(said.summary).toBe(actionReport);
    // The terminal gets that same text without markdown's marks.
    expect(lines.join('\n')).toBe(forTerminal(cliReport));
    // Every item was harvested by the fake engine and answered: 3 of the 5 ids have even length.
    const results = JSON.parse(readFileSync(join(cliDir, 'out', 'results.json'), 'utf8'));
    expect(results.harvest).toMatchObject({ harvested: 5, failed: 0 });
    expect(results.summary).toMatchObject({ total: 5, correct: 3 });
    expect(cliReport).toContain('**Trend**');
    expect(cliReport).toContain('xychart-beta');
    // And the same decision: the Action fails the step where the CLI exits 1.
    const verdict = String(said.outputs.verdict);
    expect(['fail', 'pass', 'inconclusive']).toContain(verdict);
    expect(code).toBe(verdict === 'fail' ? 1 : verdict === 'pass' ? 0 : 4);
    expect(said.failed.length > 0).toBe(verdict === 'fail');
    // Both doors say how far the harvest and the queries are, in the same lines.
    for (const log of [cliLog, said.log]) {
      expect(
        log.filter((l) => l.startsWith('Harvest: 5/5 instances done (100%) in ')),
      ).toHaveLength(1);
      expect(
        log.filter((l) => l.startsWith('Answers: 5/5 instances asked (100%) in ')),
      ).toHaveLength(1);
    }
    // Only the push-like CLI run (--commit) records; the PR run does not.
    expect(existsSync(cliHistory)).toBe(true);
    writeFileSync(join(base, 'done'), '');
  });
});

describe("the Action's log", () => {
  it('groups each phase, the progress lines inside theirs, and closes each before the next', async () => {
    const dir = tempDir('tg-groups-');
    const { env, said } = fakeActionEnv({ ...options(dir), history: '' });
    await run({}, env, { cacheStore: noCacheStore, engines: engines(() => true) });
    expect(said.failed).toEqual([]);
    // The group commands and the progress lines (how many of those depends on the clock: one a run).
    const shown = said.log
      .filter((l) => /^(::|Harvest: \d+\/|Answers: \d+\/)/.test(l))
      .map((l) => (l.startsWith('::') ? l : l.slice(0, l.indexOf(':'))))
      .filter((l, i, all) => l.startsWith('::') || l !== all[i - 1]);
    expect(shown).toEqual([
      '::group::Selection',
      '::endgroup::',
      '::group::Harvest',
      'Harvest',
      '::endgroup::',
      '::group::Queries',
      'Answers',
      '::endgroup::',
      '::group::Compare and report',
      '::endgroup::',
    ]);
    // The suite and selection lines are in the first group, the report's path in the last.
    const at = (prefix: string) => said.log.findIndex((l) => l.startsWith(prefix));
    expect(at('Suite ')).toBeGreaterThan(at('::group::Selection'));
    expect(at('Suite ')).toBeLessThan(at('::group::Harvest'));
    expect(at('Wrote ')).toBeGreaterThan(at('::group::Compare and report'));
  });

  it('closes the open group before the step fails', async () => {
    const dir = tempDir('tg-groups-');
    const { env, said } = fakeActionEnv({ ...options(dir), history: '' });
    const client = fakeClient(() => true);
    const setFailed = env.setFailed;
    env.setFailed = (m) => (said.log.push('::failed::'), setFailed(m));
    await run({}, env, {
      cacheStore: noCacheStore,
      engines: {
        ...engines(() => true),
        client: { ...client, complete: () => Promise.reject(new Error('the model fell over')) },
      },
    });
    expect(said.failed).toEqual(['the model fell over']);
    expect(said.log.filter((l) => l.startsWith('::')).slice(-3)).toEqual([
      '::group::Compare and report',
      '::endgroup::',
      '::failed::',
    ]);
  });
});

describe('each door names its own option in an error about the endpoint', () => {
  /** Both doors on the same options and engines: the CLI's exit code and last line, the Action's failures. */
  async function bothDoors(extra: Record<string, string>, doorEngines: Engines) {
    const dir = tempDir('tg-doors-');
    const stderr: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => stderr.push(t), env: {} };
    const code = await cli(
      ['run', ...flags({ ...options(join(dir, 'cli')), ...extra })],
      io,
      {},
      doorEngines,
    );
    const { env, said } = fakeActionEnv({ ...options(join(dir, 'action')), ...extra });
    await run({}, env, { cacheStore: noCacheStore, engines: doorEngines });
    return { dir, code, cli: stderr.at(-1), action: said.failed };
  }
  /** The engines with a model that fails every request with `error`. */
  const failing = (error: Error): Engines => {
    const client = fakeClient(() => true);
    return {
      ...engines(() => true),
      client: { ...client, complete: () => Promise.reject(error) },
    };
  };
  const example = 'its API base URL (e.g. http://127.0.0.1:8000/v1)';

  it('a malformed endpoint, when the options are parsed', async () => {
    const { code, cli, action } = await bothDoors(
      { endpoint: '127.0.0.1:8000/v1' },
      engines(() => true),
    );
    const why =
      '"127.0.0.1:8000/v1" has no scheme: it must start with http:// or https://, e.g. http://127.0.0.1:8000/v1';
    expect(code).toBe(2);
    expect(cli).toBe(`tracegate: --endpoint ${why}`);
    expect(action).toEqual([`input endpoint ${why}`]);
  });

  it('an unreachable endpoint, when the run asks it', async () => {
    const url = 'http://fake/v1/chat/completions';
    const { dir, code, cli, action } = await bothDoors(
      {},
      failing(new EndpointUnavailableError(url, 'connect ECONNREFUSED')),
    );
    const said = (option: string, door: string) =>
      `Model endpoint ${url} is unavailable: connect ECONNREFUSED. Check that the server is running ` +
      `and that ${option} is ${example}. ` +
      `Answers obtained so far were kept in ${join(dir, door, 'out', 'results.json')}.`;
    expect(code).toBe(3);
    expect(cli).toBe(`tracegate: ${said('--endpoint', 'cli')}`);
    expect(action).toEqual([said('input endpoint', 'action')]);
  });

  it('an endpoint that fails the check before the harvest', async () => {
    // A port nothing listens on, and the real client (no fake): its preflight runs.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    await new Promise((r) => server.close(r));
    let harvests = 0;
    const { code, cli, action } = await bothDoors(
      { endpoint: url },
      { backend: () => (harvests++, fakeBackend()), sources: { resolve: async () => SOURCE } },
    );
    const said = (option: string) =>
      `Model endpoint ${url} is unreachable: connection refused (ECONNREFUSED: nothing listens ` +
      `there) on GET ${url}/models. Start the server, or give ${option} ${example}. ` +
      'Checked before any harvest: nothing ran.';
    expect(code).toBe(3);
    expect(cli).toBe(`tracegate: ${said('--endpoint')}`);
    expect(action).toEqual([said('input endpoint')]);
    expect(harvests).toBe(0);
  });

  it('an endpoint that refuses the request', async () => {
    const { dir, code, cli, action } = await bothDoors(
      {},
      failing(new ModelRequestError(404, 'The model `m` does not exist.')),
    );
    const said = (option: string, door: string) =>
      'Model endpoint http://fake/v1 rejected the request: The model `m` does not exist. ' +
      `Check ${option} and the API key. ` +
      `Answers obtained so far were kept in ${join(dir, door, 'out', 'results.json')}.`;
    expect(code).toBe(2);
    expect(cli).toBe(`tracegate: ${said('--model', 'cli')}`);
    expect(action).toEqual([said('input model', 'action')]);
  });
});

describe('the Action passes credentials as values', () => {
  it('never writes github-token into the process environment for a ghcr.io registry', async () => {
    delete process.env.TRACEGATE_REGISTRY_PASSWORD;
    const { env } = fakeActionEnv({
      endpoint: 'http://127.0.0.1:9/v1',
      model: 'm',
      'github-token': 'secret-token',
      'image-registry': 'ghcr.io/acme/tracegate-env',
    });
    // The fake runner has no GitHub: the run fails after the registry is set up, which is enough.
    await run({}, env);
    expect(process.env.TRACEGATE_REGISTRY_PASSWORD).toBeUndefined();
    expect(process.env.TRACEGATE_REGISTRY_USERNAME).toBeUndefined();
  });
});
