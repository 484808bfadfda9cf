import { parsePrompt } from '../../src/adapters/heuristic-model/heuristic.js';
import type { CodeContext } from '../../src/contracts/oracle.js';
import { parseBudget } from '../../src/stages/prompt/budget.js';
import {
  buildPrompt,
  SYSTEM_PROMPT,
  type PromptInstance,
  type PromptOptions,
} from '../../src/stages/prompt/build.js';
import { sliceTestModule, testNamesIn } from '../../src/stages/prompt/slice.js';
import { renderAsText } from '../../src/adapters/model/text.js';

const TEST_MODULE = `import pytest
from numbers_mod import collatz_steps

LIMIT = 100


@pytest.fixture
def seed():
    return 6


def helper(n):
    return collatz_steps(n)


def test_six(seed):
    assert helper(seed) == 8


@pytest.mark.parametrize("n", [1, 2])
def test_small(n):
    assert collatz_steps(n) <= 1


class TestBig:
    def test_27(self):
        assert collatz_steps(27) == 111
`;

const instance: PromptInstance = {
  kind: 'S2_Loops',
  tests: ['test_numbers.py::test_six'],
  question: 'How many iterations does the while loop at line 3 start?',
  template_answer: { loop_iteration_count: 'int' },
};
const context: CodeContext = {
  file: 'numbers_mod.py',
  func: 'collatz_steps',
  first_line: 1,
  source:
    'def collatz_steps(n):\n    steps = 0\n    while n != 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\n',
};
const tests = [{ name: 'test_numbers.py', source: TEST_MODULE }];
const user = (options: PromptOptions, inst = instance) =>
  buildPrompt(inst, context, tests, options)[1]!.content;
const big: PromptOptions['budget'] = { amount: 100_000, unit: 'chars' };

describe('test-module slices', () => {
  it('keeps the preamble, fixtures, helpers and the named test, numbered as in the file', () => {
    const slice = sliceTestModule(TEST_MODULE, ['test_six']);
    expect(slice).toContain('    1  import pytest');
    expect(slice).toContain('    4  LIMIT = 100');
    expect(slice).toContain('    7  @pytest.fixture\n    8  def seed():');
    expect(slice).toContain('   12  def helper(n):');
    expect(slice).toContain('   16  def test_six(seed):\n   17      assert helper(seed) == 8');
    expect(slice).not.toContain('test_small');
    expect(slice).not.toContain('parametrize');
    expect(slice).not.toContain('TestBig');
    // One line stands for the omitted tests and says which lines: the numbers after it stay true.
    expect(slice.endsWith('      …  lines 18–27: 2 other test(s) omitted')).toBe(true);
    const numbered = slice.split('\n').flatMap((l) => (/^ {0,4}\d+ {2}/.test(l) ? [l] : []));
    for (const line of numbered) {
      const no = Number(line.slice(0, 5));
      expect(line.slice(7)).toBe(TEST_MODULE.split('\n')[no - 1]);
    }
  });

  it('numbers a whole file from line 1, and an omitted test between kept blocks by its lines', () => {
    expect(sliceTestModule(TEST_MODULE, []).split('\n')).toHaveLength(27);
    const slice = sliceTestModule(TEST_MODULE, ['TestBig']);
    expect(slice).toContain(
      '      …  lines 14–22: 2 other test(s) omitted\n   23  \n   24  \n   25  class TestBig:',
    );
  });

  it('maps node ids to names: parametrisation dropped, classes kept whole, bare files whole', () => {
    expect(
      testNamesIn('t.py', ['t.py::test_small[1]', 't.py::TestBig::test_27', 'u.py::x']),
    ).toEqual(['test_small', 'TestBig']);
    expect(testNamesIn('t.py', ['t.py'])).toEqual([]);
    const slice = sliceTestModule(TEST_MODULE, ['TestBig']);
    expect(slice).toContain('   25  class TestBig:\n   26      def test_27(self):');
    expect(slice).not.toContain('def test_six');
  });
});

describe('prompt modes', () => {
  it('slice: numbered target, sliced test, question, template; JSON-only system message', () => {
    const messages = buildPrompt(instance, context, tests, { mode: 'slice', budget: big });
    expect(messages[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(SYSTEM_PROMPT).toMatch(/exactly one JSON object/);
    const text = messages[1]!.content;
    expect(text).toContain('    3      while n != 1:');
    expect(text).toContain('def test_six(seed):');
    expect(text).not.toContain('def test_27');
    expect(text).toContain('## Answer template\n{"loop_iteration_count":"int"}');
  });

  it('files: the whole test file', () => {
    expect(user({ mode: 'files', budget: big })).toContain('def test_27(self):');
  });

  it('none: no code at all', () => {
    const text = user({ mode: 'none', budget: big });
    expect(text).not.toContain('```python');
    expect(text).toContain(instance.question);
  });

  it('stays readable by the built-in demo model', () => {
    const parsed = parsePrompt(user({ mode: 'slice', budget: big }));
    expect(parsed).toMatchObject({
      kind: 'S2_Loops',
      file: 'numbers_mod.py',
      func: 'collatz_steps',
    });
    expect(parsed?.lines[2]).toEqual({ no: 3, text: '    while n != 1:' });
  });
});

const sliced: CodeContext = {
  ...context,
  file: 'pkg/numbers_mod.py',
  func: 'pkg.numbers_mod.collatz_steps',
  slice: {
    functions: [
      {
        file: 'pkg/util.py',
        func: 'pkg.util.halve',
        first_line: 10,
        source: '@cached\ndef halve(n):\n    return n // 2\n',
      },
      {
        file: 'pkg/util.py',
        func: 'pkg.util.triple',
        first_line: 20,
        source: 'def triple(n):\n    return 3 * n + 1\n',
      },
    ],
    preamble: {
      file: 'pkg/numbers_mod.py',
      blocks: [
        { first_line: 1, source: 'import math\nfrom pkg.util import halve, triple\n' },
        { first_line: 5, source: 'LIMIT = 10\n' },
      ],
      truncated: false,
    },
    truncated: false,
    named: [],
    unresolved: [],
  },
};

describe('the environment', () => {
  it("states the Python version and the target package's version in every mode", () => {
    const env = {
      ...context,
      environment: { python: '3.11.2', packages: { click: '8.1.7' } },
    };
    for (const mode of ['slice', 'files', 'none'] as const) {
      const t = buildPrompt(instance, env, tests, { mode, budget: big })[1]!.content;
      expect(t.split('\n').slice(0, 2)).toEqual([
        'Question kind: S2_Loops',
        'Environment: Python 3.11.2; click 8.1.7',
      ]);
    }
    const bare = { ...context, environment: { python: '3.13.1', packages: {} } };
    expect(buildPrompt(instance, bare, tests)[1]!.content).toContain(
      'Environment: Python 3.13.1\n',
    );
  });
});

describe('slice mode with the reachable functions', () => {
  const text = (options: PromptOptions) =>
    buildPrompt(instance, sliced, tests, options)[1]!.content;

  it('renders target, preamble, reachable functions (source order), then tests', () => {
    const t = text({ mode: 'slice', budget: big });
    const order = [
      '## Code under test: pkg/numbers_mod.py (pkg.numbers_mod.collatz_steps)',
      '## Module preamble: pkg/numbers_mod.py',
      '## May be called: pkg/util.py (pkg.util.halve)',
      '## May be called: pkg/util.py (pkg.util.triple)',
      '## Test file: test_numbers.py',
    ].map((h) => t.indexOf(h));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(t).toContain(
      '    1  import math\n    2  from pkg.util import halve, triple\n      …\n    5  LIMIT = 10',
    );
    expect(t).toContain('   10  @cached\n   11  def halve(n):\n   12      return n // 2');
    expect(t).toContain('   21      return 3 * n + 1');
    expect(t.match(/## Code under test/g)).toHaveLength(1);
  });

  it('keeps the baseline parser on the target block', () => {
    const parsed = parsePrompt(text({ mode: 'slice', budget: big }));
    expect(parsed).toMatchObject({
      file: 'pkg/numbers_mod.py',
      func: 'pkg.numbers_mod.collatz_steps',
    });
    expect(parsed?.lines[2]).toEqual({ no: 3, text: '    while n != 1:' });
    expect(parsed?.lines).toHaveLength(6);
  });

  it('names what the tracer left out and the calls it could not resolve, in one line each', () => {
    const cut = {
      ...sliced,
      slice: {
        ...sliced.slice!,
        truncated: true,
        named: ['pkg.util.far', 'pkg.util.farther'],
        unresolved: ['handler(…)'],
      },
    };
    const t = buildPrompt(instance, cut, tests, { mode: 'slice', budget: big })[1]!.content;
    expect(t).toContain(
      '## Not shown\n```python\n' +
        '# Also reachable, not shown (over the budget): pkg.util.far, pkg.util.farther\n' +
        '# Calls resolved only at run time (not followed): handler(…)\n```',
    );
    expect(text({ mode: 'slice', budget: big })).not.toContain('## Not shown');
  });

  it('files and none modes ignore the slice', () => {
    expect(text({ mode: 'files', budget: big })).not.toContain('## May be called');
    expect(text({ mode: 'files', budget: big })).not.toContain('## Module preamble');
    expect(text({ mode: 'none', budget: big })).not.toContain('```python');
  });

  it('serves the budget in order: target, reachable functions, preamble, tests', () => {
    const full = buildPrompt(instance, sliced, tests, { mode: 'slice', budget: big });
    const fullSize = full[0]!.content.length + full[1]!.content.length;
    const at = (amount: number) => text({ mode: 'slice', budget: { amount, unit: 'chars' } });
    // Enough for all but part of the tests: the slice is whole, the tests are cut.
    const tight = at(fullSize - 150);
    expect(tight).toContain('   21      return 3 * n + 1');
    expect(tight).toContain('    5  LIMIT = 10');
    expect(tight).toMatch(
      /## Test file: test_numbers\.py\n```python\n[\s\S]*# … truncated: \d+ more line\(s\)\n```/,
    );
    // Less: the tests go entirely, then the preamble, before any executed function.
    const testsBody = full[1]!.content
      .split('## Test file: test_numbers.py\n```python\n')[1]!
      .split('\n```')[0]!;
    const noTests = at(fullSize - testsBody.length - 30);
    expect(noTests).toContain('   21      return 3 * n + 1');
    expect(noTests).not.toContain('def test_six');
    expect(noTests).toMatch(
      /## Module preamble: pkg\/numbers_mod\.py\n```python\n[^`]*# … truncated/,
    );
    for (const amount of [fullSize - 150, fullSize - 400, 1200, 900, 10]) {
      const options: PromptOptions = { mode: 'slice', budget: { amount, unit: 'chars' } };
      const a = buildPrompt(instance, sliced, tests, options);
      expect(buildPrompt(instance, sliced, tests, options)).toEqual(a);
      if (amount >= 1200)
        expect(a[0]!.content.length + a[1]!.content.length).toBeLessThanOrEqual(amount);
      // The target is served before anything else.
      if (amount >= 1200) expect(a[1]!.content).toContain('    6      return steps');
    }
  });
});

describe('prompt budget', () => {
  it('parses chars and tokens', () => {
    expect(parseBudget('48000')).toEqual({ amount: 48000, unit: 'chars' });
    expect(parseBudget('12000t')).toEqual({ amount: 12000, unit: 'tokens' });
    expect(parseBudget('12000 tokens')).toEqual({ amount: 12000, unit: 'tokens' });
    expect(parseBudget('-1')).toBeUndefined();
    expect(parseBudget('lots')).toBeUndefined();
  });

  it('cuts code (tests first, then the target) deterministically and never the question', () => {
    const full = buildPrompt(instance, context, tests, { mode: 'files', budget: big });
    const fullSize = full[0]!.content.length + full[1]!.content.length;
    for (const amount of [fullSize - 100, fullSize - 500, 900, 10]) {
      const options: PromptOptions = { mode: 'files', budget: { amount, unit: 'chars' } };
      const a = buildPrompt(instance, context, tests, options);
      expect(buildPrompt(instance, context, tests, options)).toEqual(a);
      const text = a[1]!.content;
      expect(text).toContain(instance.question);
      expect(text).toContain('{"loop_iteration_count":"int"}');
      const size = a[0]!.content.length + text.length;
      // Only the fixed frame (system, question, template, headings) may exceed a tiny budget.
      if (amount >= 900) expect(size).toBeLessThanOrEqual(amount);
    }
    const tight = user({ mode: 'files', budget: { amount: fullSize - 200, unit: 'chars' } });
    expect(tight).toContain('    6      return steps'); // the target is served first
    expect(tight).toMatch(/# … truncated: \d+ more line\(s\)/);
  });

  it('counts tokens at 4 characters each', () => {
    expect(user({ mode: 'files', budget: { amount: 250, unit: 'tokens' } })).toBe(
      user({ mode: 'files', budget: { amount: 1000, unit: 'chars' } }),
    );
  });
});

describe('plain-text prompts for base checkpoints', () => {
  it('joins the messages and ends where the answer begins', () => {
    const text = renderAsText(buildPrompt(instance, context, tests, { mode: 'none', budget: big }));
    expect(text.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(text.endsWith('Answer (one JSON object):\n')).toBe(true);
  });
});
