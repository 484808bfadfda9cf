import type { ResolvedEnvironment } from '../../src/contracts/environment.js';
import { environmentSchema } from '../../src/contracts/environment.js';
import { instanceSchema } from '../../src/contracts/instance.js';
import type { TracerResult } from '../../src/contracts/tracer-protocol.js';
import {
  describeUnanswerable,
  shownText,
  unanswerable,
} from '../../src/stages/kinds/answerable.js';
import { toOutcome } from '../../src/stages/harvest/outcome.js';
import { answerProblem, harvestRule } from '../../src/stages/screen/screen.js';

describe('answerability: nothing of the harvest machine in an answer', () => {
  it.each([
    [
      {
        exception_type: 'FileNotFoundError',
        exception_message:
          "[Errno 2] No such file or directory: '/tg/work/g1/tmp/pytest-of-tracegate20001/pytest-0/x/absent.json'",
      },
      'machine-path',
      '/tg/work/g1/tmp/pytest-of-tracegate20001/pytest-0/x/absent.json',
    ],
    [{ message: 'cannot open /tmp/tmpab12cd/data.txt' }, 'machine-path', '/tmp/tmpab12cd/data.txt'],
    [{ value: 'pytest-of-root' }, 'machine-path', 'pytest-of-root'],
    [{ owner: 'tracegate20001' }, 'machine-user', 'tracegate20001'],
    [{ repr: '<Foo object at 0x7f3a2b1c9d00>' }, 'address', 'at 0x7f3a2b1c9d00'],
    [
      { crashing_tests: [], safe_tests: ['<process>', 't.py::test_a'] },
      'undefined-name',
      '<process>',
    ],
    [{ ['/tg/x']: 1 }, 'machine-path', '/tg/x'],
  ])('refuses %j (%s)', (answer, rule, found) => {
    expect(unanswerable(answer)).toEqual({ rule, found });
    expect(answerProblem(answer)).toMatchObject({ rule: 'unanswerable' });
    expect(describeUnanswerable(unanswerable(answer)!)).toContain(`answerability rule ${rule}`);
  });

  it.each([
    [{ repr: '<Foo object at 0x…>' }],
    [{ path: 'src/click/utils.py', line: 12 }],
    [{ message: 'a/tmp/b is not a machine path', ratio: '1/tmp' }],
    [{ safe_tests: ['tests/test_tg.py::test_x'] }],
  ])('keeps %j', (answer) => {
    expect(unanswerable(answer)).toBeUndefined();
  });
});

describe('answerability: what the model is shown is answerable', () => {
  it('keeps a path the test names or the input holds, refuses one it does not', () => {
    const shown = "with open('/tmp/out.txt', 'w') as f:";
    expect(unanswerable({ message: "can't write /tmp/out.txt" }, shown)).toBeUndefined();
    // The first unshown match is the one reported, even after a shown one.
    expect(unanswerable({ message: 'copied /tmp/out.txt to /tmp/work/x.txt' }, shown)).toEqual({
      rule: 'machine-path',
      found: '/tmp/work/x.txt',
    });
  });
});

describe('the harvest refuses an unanswerable oracle, by name and rule, for every suite', () => {
  const env: ResolvedEnvironment = {
    recipe: environmentSchema.parse({ name: 'env', python: '3.11', packages: [] }),
    source: { kind: 'packages', wheels: [] },
    runtime: { backend: 'docker', image: 'python:3.11-slim', note: 'present' },
    digest: 'e'.repeat(64),
  };
  const instance = instanceSchema.parse({
    id: 'outside-s5',
    kind: 'S5_Exceptions',
    environment: 'env',
    tests: ['test_m.py::test_it'],
    target: { file: 'pkg/m.py', function: 'load' },
    query: { invocation: 1 },
  });
  const loaded = {
    instance,
    dir: '/suite/outside',
    file: 'outside/instance.json',
    contentHash: 'a'.repeat(64),
    environment: env.recipe,
    environmentDir: 'environments',
  };
  const result = (answer: TracerResult['answer'], test: string): TracerResult => ({
    tracegate_result: 1,
    id: instance.id,
    status: 'ok',
    answer,
    question: 'Which exception escapes load?',
    template_answer: { exception_type: 'str', exception_message: 'str' },
    context: {
      file: 'pkg/m.py',
      func: 'load',
      first_line: 1,
      source: 'def load(path):\n    return open(path).read()\n',
      tests: [{ name: 'test_m.py', source: test }],
    },
    python: '3.11.2',
    tracer_version: '1',
    stats: { events: 1, invocations: 1, pytest_exit_code: 0, seconds: 0.1 },
  });
  const missing = '/tg/work/g1/tmp/pytest-of-tracegate20001/pytest-0/test_it0/absent.json';

  it('refuses a temporary path the prompt never shows', () => {
    const outcome = toOutcome(
      loaded,
      result(
        { exception_type: 'FileNotFoundError', exception_message: `No such file: '${missing}'` },
        "def test_it(tmp_path):\n    load(tmp_path / 'absent.json')\n",
      ),
      env,
      'f'.repeat(64),
    );
    expect(outcome).toEqual({
      status: 'invalid',
      reason: expect.stringContaining(`"${missing}"`),
    });
    expect(outcome.status !== 'ok' && harvestRule(outcome.reason)).toBe('unanswerable');
  });

  it('keeps the same answer when the test names the path', () => {
    const outcome = toOutcome(
      loaded,
      result(
        {
          exception_type: 'FileNotFoundError',
          exception_message: "No such file: '/tmp/absent.json'",
        },
        "def test_it():\n    load('/tmp/absent.json')\n",
      ),
      env,
      'f'.repeat(64),
    );
    expect(outcome.status).toBe('ok');
    expect(shownText(instance, outcome.status === 'ok' && outcome.entry.context)).toContain(
      '/tmp/absent.json',
    );
  });
});
