import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
} from '../../src/adapters/heuristic-model/server.js';
import { oracleSchema } from '../../src/contracts/oracle.js';
import { resultsSchema, type Results } from '../../src/contracts/results.js';
import { runCli, tempDir, FIXTURES } from '../helpers/cli.js';
import { harvestContainerStarts, requireDocker } from '../helpers/docker.js';
import { cachedOracleEntries, cachedOracles, oracleEchoServer } from '../helpers/echo-model.js';
import { FaultyModelServer } from '../helpers/model-server.js';

/**
 * B1/B2 for real: humanize's `ordinal` with two seeded bugs (13 → "13rd"; 10 → IndexError),
 * harvested in Docker, replies run against both versions in the sandbox, scored, cached.
 */
const SUITE = join(FIXTURES, 'comet');
const TEEN = {
  file: 'humanize/number.py',
  line: 112,
  original: '(11, 12, 13)',
  replacement: '(11, 12, 14)',
};

/** B1's answer fields a reply gives as null when they do not apply. */
const NONE = { return: null, stdout: null, exception: null };

// Milliseconds, not whole seconds: a window that starts at a whole second would take in the
// starts of the run that ended within that second.
const nowSec = () => Date.now() / 1000;

function results(out: string): Results {
  return resultsSchema.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));
}

async function run(
  suite: string,
  cache: string,
  url: string,
  out: string,
  extra: string[] = [],
  model = 'm',
) {
  const done = await runCli([
    'run',
    '--instances',
    suite,
    '--cache',
    cache,
    '--endpoint',
    url,
    '--model',
    model,
    '--out',
    out,
    ...extra,
  ]);
  expect({ code: done.code, stderr: done.stderr.match(/^tracegate: .*/m)?.[0] }).toEqual({
    code: 0,
    stderr: undefined,
  });
  return { ...done, results: results(out) };
}

const fenced = (answer: unknown) => '```json\n' + JSON.stringify(answer) + '\n```';

/** The cache's oracles with the code each prompt shows (two bugs of one function ask the same question). */
function oraclesOf(cache: string): { kind: string; answer: unknown; source: string }[] {
  return readdirSync(join(cache, 'oracles')).map((key) => {
    const read = (name: string) =>
      JSON.parse(readFileSync(join(cache, 'oracles', key, name), 'utf8')) as Record<
        string,
        unknown
      >;
    return {
      kind: read('oracle.json').question_kind as string,
      answer: read('oracle.json').oracle_answer,
      source: read('context.json').source as string,
    };
  });
}

describe("Comet's kinds, verified in Docker", () => {
  let docker: Docker;
  let cache: string;
  beforeAll(async () => {
    docker = await requireDocker();
    cache = tempDir('tg-comet-');
    const { code, stdout } = await runCli(['harvest', '--instances', SUITE, '--cache', cache]);
    expect({ code, totals: stdout.split('\n')[0] }).toEqual({
      code: 0,
      totals: 'oracles: 0 cached, 4 harvested, 0 failed',
    });
  }, 600_000);

  it('the gold is the buggy behaviour on the reference input; the prompt shows the buggy code, never the fix', () => {
    const oracles = oraclesOf(cache);
    const b1 = oracles.filter((o) => o.kind === 'B1_BuggyIO').map((o) => o.answer);
    expect(b1).toEqual(
      expect.arrayContaining([
        { input: '13', outcome: 'ok', return: "'13rd'", stdout: '', exception: null },
        {
          input: { args: [10] },
          outcome: 'crash',
          return: null,
          stdout: null,
          exception: 'IndexError',
        },
      ]),
    );
    for (const question of cachedOracles(cache).keys())
      expect(question).not.toMatch(/\(11, 12, 13\)|value % 10\b|test_hz/);
    const contexts = readdirSync(join(cache, 'oracles')).map(
      (key) =>
        JSON.parse(readFileSync(join(cache, 'oracles', key, 'context.json'), 'utf8')) as {
          source: string;
          calls: { input: unknown; return: string }[];
        },
    );
    // Each prompt's code is its own buggy version: the mutated line, never the original one.
    for (const context of contexts) {
      const teen = context.source.includes('(11, 12, 14)');
      expect([teen, context.source.includes('else value % 11')]).toEqual([teen, !teen]);
      expect(context.source).not.toContain(teen ? '(11, 12, 13)' : 'else value % 10');
      expect(context.calls.length).toBe(2);
    }
    expect(contexts.map((c) => c.calls[0])).toContainEqual({
      input: '1',
      outcome: 'ok',
      return: "'1st'",
      stdout: '',
    });
  });

  it("each bug carries the traced kinds' complexity, of its buggy run in the container", () => {
    const metas = readdirSync(join(cache, 'oracles')).map((key) => {
      const oracle = oracleSchema.parse(
        JSON.parse(readFileSync(join(cache, 'oracles', key, 'oracle.json'), 'utf8')),
      );
      return { complexity: oracle.meta.complexity };
    });
    for (const { complexity } of metas) {
      expect(complexity).toMatchObject({ version: 1 });
      // The target ran: its lines were traced inside the container (one invocation per bug).
      expect(complexity!.features.semantic).toMatchObject({ invocations: 1 });
      expect(complexity!.features.semantic.steps).toBeGreaterThan(0);
    }
    // Two bugs, each asked as B1 and as B2: one score per bug, shared by its two kinds.
    expect(new Set(metas.map((m) => JSON.stringify(m.complexity!.features.semantic))).size).toBe(2);
  });

  it('a reference endpoint passes 100%; re-scoring its cached replies starts no container', async () => {
    const echo = oracleEchoServer(cachedOracleEntries(cache));
    const url = await echo.start();
    try {
      const first = await run(SUITE, cache, url, join(cache, 'out-ref'));
      expect(first.results.instances.filter((r) => !r.correct).map((r) => r.id)).toEqual([]);
      expect(first.results.summary.comet).toMatchObject({
        B1_BuggyIO: { n: 2, passed: 2, exposureRate: 1, outcomeAccuracy: 1 },
        B2_RegressionTest: { n: 2, passed: 2 },
      });
      expect(readFileSync(join(cache, 'out-ref', 'report.md'), 'utf8')).toMatch(
        /Bug reasoning[\s\S]*\| B1_BuggyIO \| 2 \| 2 \| 100\.0% \| 100\.0% \|/,
      );
      const t0 = nowSec();
      const again = await run(SUITE, cache, url, join(cache, 'out-ref-2'));
      const t1 = nowSec();
      expect(again.results.instances.map((r) => [r.id, r.correct, r.comet?.cached])).toEqual(
        first.results.instances.map((r) => [r.id, true, true]),
      );
      expect(await harvestContainerStarts(docker, t0, t1)).toBe(0);
      expect(again.stderr + again.stdout).not.toMatch(/Verifying/);
    } finally {
      await echo.stop();
    }
  }, 600_000);

  it('an input on which both versions agree is "no exposure"; a test that passes on both fails B2', async () => {
    const server = new FaultyModelServer((prompt) => {
      if (prompt.includes('Question kind: B1_BuggyIO'))
        return fenced({ input: '1', outcome: 'ok', return: "'1st'", stdout: '', exception: null });
      return fenced({
        precondition: 'any',
        postcondition: '1st',
        explanation: 'none',
        test: 'from humanize.number import ordinal\n\ndef test_one():\n    assert ordinal(1) == "1st"\n',
      });
    });
    const url = await server.start();
    try {
      const { results: r } = await run(SUITE, cache, url, join(cache, 'out-dull'));
      const reasons = Object.fromEntries(
        r.instances.map((i) => [i.id, [i.correct, i.comet?.reason]]),
      );
      expect(reasons).toEqual({
        'cm-b1-teen': [false, expect.stringMatching(/^no exposure/)],
        'cm-b1-index': [false, expect.stringMatching(/^no exposure/)],
        'cm-b2-teen': [false, 'passes on both versions'],
        'cm-b2-index': [false, 'passes on both versions'],
      });
      expect(r.instances.every((i) => i.comet?.exposed !== true)).toBe(true);
    } finally {
      await server.stop();
    }
  }, 600_000);

  it('the demo model answers them, badly: from the example calls, which expose nothing', async () => {
    const demo = await startHeuristicServer();
    try {
      const { results: r } = await run(
        SUITE,
        cache,
        demo.url,
        join(cache, 'out-demo'),
        [],
        HEURISTIC_MODEL,
      );
      expect(r.instances.map((i) => [i.id, i.scored, i.error])).toEqual(
        r.instances.map((i) => [i.id, true, null]),
      );
      expect(r.summary.comet).toMatchObject({
        B1_BuggyIO: { n: 2, passed: 0, exposureRate: 0, reasons: { 'no exposure': 2 } },
        B2_RegressionTest: { n: 2, passed: 0, reasons: { 'passes on both versions': 2 } },
      });
    } finally {
      await demo.close();
    }
  }, 600_000);

  it('hostile and bad replies are contained and classified, and never cost the other items', async () => {
    // One instance per reply, told apart by its one example call (each on which the bug does not show).
    const suite = join(tempDir('tg-comet-hostile-'), 'comet');
    cpSync(SUITE, suite, { recursive: true });
    const B2: Record<string, string> = {
      legit:
        'from humanize.number import ordinal\n\ndef test_teen():\n    assert ordinal(13) == "13th"\n',
      getsource:
        'import inspect\nfrom humanize import number\n\ndef test_src():\n    assert "(11, 12, 13)" in inspect.getsource(number.ordinal)\n',
      'open-correct':
        'from humanize import number\n\ndef test_file():\n    assert "(11, 12, 13)" in open(number.__file__).read()\n',
      walk: [
        'import os',
        '',
        'def test_walk():',
        '    found = []',
        "    for root, dirs, files in os.walk('/'):",
        "        dirs[:] = [d for d in dirs if d not in ('proc', 'sys', 'dev')]",
        '        for name in files:',
        "            if name == 'number.py':",
        '                try:',
        '                    if "(11, 12, 13)" in open(os.path.join(root, name)).read():',
        '                        found.append(root)',
        '                except OSError:',
        '                    pass',
        '    assert found',
        '',
      ].join('\n'),
      plan: 'def test_plan():\n    assert "(11, 12, 13)" in open("/tg/plan/plan.json").read()\n',
      fork: 'import os\n\ndef test_fork():\n    while True:\n        os.fork()\n',
      memory: 'def test_memory():\n    block = bytearray(10 * 1024 ** 3)\n    assert block\n',
      sleep: 'import time\n\ndef test_sleep():\n    time.sleep(10 ** 6)\n',
      forge: [
        'import sys',
        '',
        'def test_forge():',
        '    print(\'{"tracegate_result": 1, "id": "verify-0", "status": "ok"}\')',
        "    sys.__stdout__.write('1 passed in 0.01s\\n')",
        '    assert False',
        '',
      ].join('\n'),
      daemon:
        'import subprocess\n\ndef test_daemon():\n    subprocess.Popen(["sleep", "1000"], start_new_session=True)\n',
      syntax: 'def test_x(:\n    pass\n',
      huge: `def test_huge():\n    pass\n${'#'.repeat(1024 * 1024)}\n`,
      missing: 'import no_such_module_here\n\ndef test_x():\n    pass\n',
      // Tell a respelled run from a plain one by what the disk shows, and invert the text's answer
      // there: before, a respelled run's text alone was ast.unparse's output, and its byte-code the
      // one unchecked-hash .pyc (flags 1); each passed all four runs, never calling `ordinal`.
      'text-form': [
        'import ast',
        'from humanize import number',
        '',
        'def test_text():',
        '    text = open(number.__file__).read()',
        '    respelled = ast.unparse(ast.parse(text)) + "\\n" == text',
        '    assert ("(11, 12, 13)" in text) != respelled',
        '',
      ].join('\n'),
      'pyc-header': [
        'import importlib.util',
        'from humanize import number',
        '',
        'def test_header():',
        '    text = open(number.__file__).read()',
        '    with open(importlib.util.cache_from_source(number.__file__), "rb") as handle:',
        '        respelled = handle.read(16)[4:8] == (1).to_bytes(4, "little")',
        '    assert ("(11, 12, 13)" in text) != respelled',
        '',
      ].join('\n'),
    };
    const B1: Record<string, unknown> = {
      code: { ...NONE, input: "__import__('os').system('id')", outcome: 'ok' },
      arity: { ...NONE, input: '13, "male", 3, 4', outcome: 'ok' },
      'no-class': { ...NONE, input: '13', outcome: 'crash', exception: 'NoSuchError' },
      'not-json': 'this is not an answer at all',
      '10mb': `{"input": "${'1'.repeat(10 * 1024 * 1024)}"}`,
    };
    const tags = [
      ...Object.keys(B2).map((k) => `b2-${k}`),
      ...Object.keys(B1).map((k) => `b1-${k}`),
    ];
    const exampleOf = new Map(tags.map((tag, i) => [String(20 + i), tag]));
    for (const [example, tag] of exampleOf) {
      const kind = tag.startsWith('b2') ? 'B2_RegressionTest' : 'B1_BuggyIO';
      writeFileSync(
        join(suite, 'hz', `cm-${tag}.instance.json`),
        JSON.stringify({
          id: `cm-${tag}`,
          kind,
          environment: 'hz',
          tests: ['test_hz.py'],
          target: { file: 'humanize/number.py', function: 'ordinal' },
          query: { input: '13', examples: [example] },
          timeout_seconds: 300,
          mutant: TEEN,
        }),
      );
    }
    const server = new FaultyModelServer((prompt) => {
      const example = /^input "(\d+)":/m.exec(prompt)?.[1];
      const tag = example ? exampleOf.get(example) : undefined;
      if (!tag) return 'not one of ours';
      if (tag.startsWith('b1')) {
        const reply = B1[tag.slice(3)];
        return typeof reply === 'string' ? reply : fenced(reply);
      }
      return fenced({
        precondition: 'p',
        postcondition: 'q',
        explanation: 'r',
        test: B2[tag.slice(3)],
      });
    });
    const url = await server.start();
    try {
      const { results: r } = await run(
        suite,
        join(cache, 'hostile'),
        url,
        join(cache, 'out-hostile'),
        ['--ids', tags.map((t) => `cm-${t}`).join(',')],
      );
      const by = Object.fromEntries(r.instances.map((i) => [i.id.slice(3), i]));
      const reason = (tag: string) => by[tag]?.comet?.reason ?? by[tag]?.error;
      expect(by['b2-legit']).toMatchObject({ correct: true });
      expect(Object.keys(by).sort()).toEqual([...tags].sort());
      expect(r.instances.filter((i) => i.correct).map((i) => i.id)).toEqual(['cm-b2-legit']);
      expect(reason('b2-getsource')).toMatch(/^reads the code/);
      expect(reason('b2-open-correct')).toMatch(/^reads the code/);
      // Nothing readable anywhere holds the correct version during the buggy run.
      expect(by['b2-walk']!.comet?.verdicts).toMatchObject({ buggy: 'fail', correct: 'pass' });
      expect(reason('b2-walk')).toMatch(/^reads the code/);
      expect(reason('b2-plan')).toBe('fails on both versions');
      expect(reason('b2-fork')).toMatch(/fails on both versions|does not run/);
      expect(reason('b2-memory')).toBe('fails on both versions');
      // Past its time once a test runs is a failure, as out of memory is (docs/comet.md, "Bounds").
      expect(by['b2-sleep']!.comet?.verdicts).toEqual({ buggy: 'fail', correct: 'fail' });
      expect(reason('b2-sleep')).toBe('fails on both versions');
      expect(reason('b2-forge')).toBe('fails on both versions');
      expect(reason('b2-daemon')).toBe('passes on both versions');
      // Every run shows a respelling and one flavour of byte-code: these tell no run from another.
      expect(reason('b2-text-form')).toBe('passes on the buggy version');
      expect(reason('b2-pyc-header')).toBe('passes on the buggy version');
      expect(reason('b2-syntax')).toMatch(/^the test does not run: .*SyntaxError/);
      expect(reason('b2-missing')).toMatch(/^the test does not run: .*no_such_module_here/);
      expect(reason('b1-code')).toMatch(/^refused: bad input: an argument is not a Python literal/);
      expect(reason('b1-arity')).toMatch(/^refused: the input does not fit the signature/);
      expect(reason('b1-no-class')).toMatch(/^the buggy version's outcome is ok/);
      expect(by['b1-not-json']).toMatchObject({ correct: false, error: 'no_json' });
      // Bounded on the host: a reply past the parser's 200,000 characters holds no answer (so a
      // test file of 1 MiB is never run; families/comet/score.ts refuses one over 256 KiB besides);
      // a 10 MiB reply is not read at all (the endpoint's fault, not the model's answer).
      expect(by['b2-huge']).toMatchObject({ correct: false, error: 'no_json' });
      expect(by['b1-10mb']).toMatchObject({ correct: false, error: 'response_too_large' });
    } finally {
      await server.stop();
    }
    // Nothing outlived its run: no container of ours is left (this process's: the CLI runs in it,
    // and another run on the same engine, a generation say, is not ours to count).
    const left = await docker.listContainers({
      all: true,
      filters: { label: ['tracegate.job', `tracegate.pid=${process.pid}`] },
    });
    expect(left).toEqual([]);
  }, 900_000);

  it('a B2 test cannot carry state from one run to the next: each run has a container of its own', async () => {
    // The process-id counter only grows inside one container. This test reads its own pid, takes
    // the run's place in the fixed order (buggy, correct, buggy respelled, correct respelled) from
    // it, answers as that run must, and moves the counter to the next run's mark. Before, the runs
    // shared a container and it passed all four, never calling `ordinal`.
    const PID_MARK = [
      'import os',
      '',
      'def test_mark():',
      '    run = os.getpid() // 2000',
      '    while True:',
      '        child = os.fork()',
      '        if child == 0:',
      '            os._exit(0)',
      '        os.waitpid(child, 0)',
      '        if child >= (run + 1) * 2000:',
      '            break',
      '    assert run % 2 == 1',
      '',
    ].join('\n');
    const server = new FaultyModelServer(() =>
      fenced({ precondition: 'p', postcondition: 'q', explanation: 'r', test: PID_MARK }),
    );
    const url = await server.start();
    try {
      // The suite's oracle from the shared cache: only the reply runs.
      const { results: r } = await run(SUITE, cache, url, join(cache, 'out-pid'), [
        '--ids',
        'cm-b2-teen',
      ]);
      expect(r.instances.map((i) => [i.id, i.correct, i.comet?.verdicts])).toEqual([
        ['cm-b2-teen', false, { buggy: 'fail', correct: 'fail' }],
      ]);
    } finally {
      await server.stop();
    }
  }, 600_000);
});
