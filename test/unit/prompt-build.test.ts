import { parsePrompt } from '../../src/baseline/heuristic.js';
import type { CodeContext } from '../../src/harvest/oracle.js';
import { parseBudget } from '../../src/prompt/budget.js';
import {
  buildPrompt,
  SYSTEM_PROMPT,
  type PromptInstance,
  type PromptOptions,
} from '../../src/prompt/build.js';
import { sliceTestModule, testNamesIn } from '../../src/prompt/slice.js';
import { renderAsText } from '../../src/prompt/text.js';

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
  it('keeps the preamble, fixtures, helpers and the named test; omits the other tests', () => {
    const slice = sliceTestModule(TEST_MODULE, ['test_six']);
    expect(slice).toContain('import pytest');
    expect(slice).toContain('LIMIT = 100');
    expect(slice).toContain('@pytest.fixture\ndef seed():');
    expect(slice).toContain('def helper(n):');
    expect(slice).toContain('def test_six(seed):\n    assert helper(seed) == 8');
    expect(slice).not.toContain('test_small');
    expect(slice).not.toContain('parametrize');
    expect(slice).not.toContain('TestBig');
    expect(slice).toContain('# … 2 other test(s) omitted');
  });

  it('maps node ids to names: parametrisation dropped, classes kept whole, bare files whole', () => {
    expect(
      testNamesIn('t.py', ['t.py::test_small[1]', 't.py::TestBig::test_27', 'u.py::x']),
    ).toEqual(['test_small', 'TestBig']);
    expect(testNamesIn('t.py', ['t.py'])).toEqual([]);
    const slice = sliceTestModule(TEST_MODULE, ['TestBig']);
    expect(slice).toContain('class TestBig:\n    def test_27(self):');
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

  it('stays readable by the built-in baseline endpoint', () => {
    const parsed = parsePrompt(user({ mode: 'slice', budget: big }));
    expect(parsed).toMatchObject({
      kind: 'S2_Loops',
      file: 'numbers_mod.py',
      func: 'collatz_steps',
    });
    expect(parsed?.lines[2]).toEqual({ no: 3, text: '    while n != 1:' });
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
