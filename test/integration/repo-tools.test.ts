import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resultsSchema, type Results } from '../../src/contracts/results.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FaultyModelServer, type SeenRequest } from '../helpers/model-server.js';
import { gitRepo, PYTEST, writeTree } from '../helpers/sources.js';

/**
 * `--context repo` end to end: a git environment whose repository holds links out of its tree,
 * harvested in a real engine; its source exported from the image; a loopback agent that reads
 * the target, tries three ways out of the tree, lists a directory, then answers.
 */
const REPO = {
  'calc/__init__.py': '',
  'calc/core.py': [
    'from calc.util import step',
    '',
    '',
    'def turns(n):',
    '    count = 0',
    '    for i in range(n):',
    '        count = step(count, i)',
    '    return count',
    '',
  ].join('\n'),
  'calc/util.py': 'def step(count, i):\n    return count + 1\n',
  // A link to the host's /etc, and one that climbs out of the checkout: both refused by the tools.
  'calc/escape': { link: '/etc' },
  'calc/up': { link: '../..' },
};
const TEST = 'from calc.core import turns\n\n\ndef test_turns():\n    assert turns(3) == 3\n';
const INSTANCE = {
  id: 'calc-turns-loop',
  kind: 'S2_Loops',
  environment: 'calc',
  tests: ['test_calc.py::test_turns'],
  target: { file: 'calc/core.py', function: 'turns' },
  query: { invocation: 1, loop_line: 6 },
  timeout_seconds: 60,
};

/** What the agent asks for, one call a turn, before it answers. */
const SCRIPT = [
  { name: 'read_file', arguments: '{"path": "calc/core.py"}' },
  { name: 'read_file', arguments: '{"path": "../../../../etc/passwd"}' },
  { name: 'read_file', arguments: '{"path": "/proc/self/environ"}' },
  { name: 'read_file', arguments: '{"path": "calc/escape/passwd"}' },
  { name: 'list_dir', arguments: '{"path": "calc"}' },
];

/** The tool results the agent has been sent so far (OpenAI chat: one `tool` message each). */
const toolResults = (request: SeenRequest) =>
  (request.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('context repo: the model reads the environment through read-only tools', () => {
  const suite = tempDir('tg-repo-suite-');
  const cache = tempDir('tg-repo-cache-');
  beforeAll(async () => {
    await requireDocker();
    const [commit] = gitRepo(join(suite, 'repos', 'calc'), [REPO]);
    writeTree(suite, {
      'environments/calc.json': JSON.stringify({
        name: 'calc',
        python: '3.11',
        packages: PYTEST,
        git: { repo: 'repos/calc', commit },
      }),
      'cases/turns/instance.json': JSON.stringify(INSTANCE),
      'cases/turns/test_calc.py': TEST,
    });
  });

  const agent = () =>
    new FaultyModelServer((_prompt, request) => {
      const seen = toolResults(request);
      return seen.length < SCRIPT.length
        ? { toolCalls: [SCRIPT[seen.length]!] }
        : '{"loop_iteration_count": 3}';
    });
  const run = (url: string, out: string, ...extra: string[]) =>
    runCli([
      'run',
      '--instances',
      suite,
      '--endpoint',
      url,
      '--model',
      'agent',
      '--model-revision',
      'r1',
      '--context',
      'repo',
      '--cache',
      cache,
      '--out',
      out,
      ...extra,
    ]);
  const results = (out: string): Results =>
    resultsSchema.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));

  it('reads, is refused every way out, answers; the transcript is recorded; a rerun sends nothing', async () => {
    const server = agent();
    const url = await server.start();
    try {
      const out = join(cache, 'out-1');
      const first = await run(url, out);
      expect(first.stderr).not.toMatch(/^tracegate: /m);
      expect(first.code).toBe(0);
      const r = results(out);
      expect(r.summary.accuracy).toBe(1);
      expect(r.prompt?.context).toBe('repo');
      expect(r.provenance.prompt).toMatch(/\+repo$/);
      const [record] = r.instances;
      expect(record!.transcript!.turns).toHaveLength(SCRIPT.length + 1);
      expect(record!.transcript!.turns.flatMap((t) => t.calls.map((c) => c.status))).toEqual([
        'ok',
        'refused',
        'refused',
        'refused',
        'ok',
      ]);
      expect(record!.transcript!.refused).toBe(3);
      expect(r.query?.tools).toMatchObject({ turns: 6, calls: 5, refused: 3 });
      // What the agent was sent: the target's numbered source, refusals, the listing; nothing of the host.
      const sent = toolResults(server.seen.at(-1)!);
      expect(sent[0]).toMatch(/^\s+4 {2}def turns\(n\):$/m);
      for (const refusal of sent.slice(1, 4)) {
        expect(refusal).not.toMatch(/root:x:0:0|PATH=|HOSTNAME=/);
        expect(refusal).toMatch(
          /(stay|is|are) (inside|outside) the repository|outside the repository/,
        );
      }
      expect(sent[4]).toMatch(/core\.py/);
      expect(sent[4]).toMatch(/util\.py/);
      // The prompt shows no code: where to look, the question, the template.
      const prompt = (server.seen[0]!.body.messages as { role: string; content: string }[])[1]!;
      expect(prompt.content).toMatch(
        /Code under test: calc\/core\.py, function calc\.core\.turns \(defined from line 4\)/,
      );
      expect(prompt.content).not.toMatch(/count = step\(count, i\)/);
      expect(server.seen[0]!.body.tools).toHaveLength(4);
      // The view was exported once and stored by the environment's digest.
      expect(readdirSync(join(cache, 'views')).filter((f) => f.endsWith('.json'))).toHaveLength(1);
      expect(first.stderr + first.stdout).toMatch(/Source view of environment "calc"/);

      const asked = server.requests;
      const again = await run(url, join(cache, 'out-2'));
      expect(again.code).toBe(0);
      expect(server.requests).toBe(asked);
      const replay = results(join(cache, 'out-2'));
      expect(replay.summary.accuracy).toBe(1);
      expect(replay.instances[0]!.cached).toBe(true);
      expect(replay.instances[0]!.transcript).toEqual(record!.transcript);
      expect(again.stderr + again.stdout).not.toMatch(/Source view of environment/);
    } finally {
      await server.stop();
    }
  }, 600_000);

  it('a server without tool calling is refused before any harvest, naming --context slice', async () => {
    const server = new FaultyModelServer(() => '{}', undefined, { rejectTools: true });
    const url = await server.start();
    try {
      const done = await run(url, join(cache, 'out-notools'));
      expect(done.code).toBe(2);
      expect(done.stderr).toMatch(/refused a request that offers tools/);
      expect(done.stderr).toMatch(/--context slice/);
      expect(done.stderr).toMatch(/Checked before any harvest/);
      expect(server.requests).toBe(0);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
