import { heuristicAnswer, parsePrompt } from '../../src/adapters/heuristic-model/heuristic.js';
import { buildPrompt, type PromptInstance } from '../../src/stages/prompt/build.js';
import type { Template } from '../../src/contracts/instance.js';

const source = `def parse_all(items):
    """Parse every item."""
    ports = []
    for item in items:
        try:
            ports.append(parse_port(item))
        except (OverflowError, ValueError):
            ports.append(-1)
    return ports
`;
const context = { file: 'settings.py', func: 'settings.parse_all', first_line: 11, source };

function instance(template: Template, question = 'What happens?'): PromptInstance {
  return {
    kind: 'S5_Exceptions',
    tests: ['test_x.py::test_x'],
    question,
    template_answer: template,
  };
}

const user = (i: PromptInstance) =>
  buildPrompt(i, context, [{ name: 'test_x.py', source: 'def test_x(): pass\n' }])[1]!.content;

describe('the baseline heuristic reads only the prompt', () => {
  it('parses the prompt the pipeline builds', () => {
    const parsed = parsePrompt(user(instance({ covered_lines: ['int'] })));
    expect(parsed).toMatchObject({
      kind: 'S5_Exceptions',
      file: 'settings.py',
      func: 'settings.parse_all',
    });
    expect(parsed!.lines[0]).toEqual({ no: 11, text: 'def parse_all(items):' });
  });

  it('guesses every statement line once, skipping the def line and the docstring', () => {
    expect(JSON.parse(heuristicAnswer(user(instance({ covered_lines: ['int'] }))))).toEqual({
      covered_lines: [13, 14, 15, 16, 17, 18, 19],
    });
  });

  it('guesses caught exceptions from except clauses', () => {
    expect(
      JSON.parse(heuristicAnswer(user(instance({ caught_exception_kinds: ['str'] })))),
    ).toEqual({
      caught_exception_kinds: ['OverflowError', 'ValueError'],
    });
  });

  it('fills unknown templates with typed defaults', () => {
    expect(
      JSON.parse(
        heuristicAnswer(
          user(instance({ whatever: { n: 'int', ok: 'bool', s: 'str', l: ['int'] } })),
        ),
      ),
    ).toEqual({
      whatever: { n: 0, ok: false, s: '', l: [] },
    });
  });

  it('guesses world-model answers biased toward "passed", as the study finds models are', () => {
    const ask = (kind: PromptInstance['kind'], template: Template) =>
      JSON.parse(heuristicAnswer(user({ ...instance(template), kind }))) as unknown;
    expect(
      ask('W1_Outcome', { outcome: 'str', exception_type: 'str|null', failure_line: 'int|null' }),
    ).toEqual({ outcome: 'passed', exception_type: null, failure_line: null });
    expect(ask('W3_WallTime', { wall_ms: 'float' })).toEqual({ wall_ms: 10 });
    expect(
      ask('W4_Profile', {
        hot_methods_time: ['str'],
        hot_methods_alloc: ['str'],
        hot_lines_time: ['str'],
        hot_lines_alloc: ['str'],
      }),
    ).toEqual({
      hot_methods_time: ['settings.parse_all'],
      hot_methods_alloc: ['settings.parse_all'],
      hot_lines_time: ['settings.py:13'],
      hot_lines_alloc: ['settings.py:13'],
    });
  });

  it('answers {} to a prompt it cannot read', () => {
    expect(heuristicAnswer('hello')).toBe('{}');
  });
});
