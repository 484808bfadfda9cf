import { parseAnswer } from '../../src/stages/parse/answer.js';

const template = { loop_iteration_count: 'int' };

function verdict(raw: string, finish?: string): string {
  const parsed = parseAnswer(raw, finish, template);
  return parsed.ok ? `ok:${JSON.stringify(parsed.value)}` : parsed.failure;
}

describe('answer extraction and validation', () => {
  it.each([
    ['{"loop_iteration_count": 3}', 'ok:{"loop_iteration_count":3}'],
    ['```json\n{"loop_iteration_count": 4}\n```', 'ok:{"loop_iteration_count":4}'],
    [
      'The loop turns 5 times, so:\n{"loop_iteration_count": 5}\nDone.',
      'ok:{"loop_iteration_count":5}',
    ],
    [
      '<think>maybe {"loop_iteration_count": 1}</think>{"loop_iteration_count": 6}',
      'ok:{"loop_iteration_count":6}',
    ],
    ['{"answer": {"loop_iteration_count": 7}}', 'ok:{"loop_iteration_count":7}'],
    ['{"loop_iteration_count": "8"}', 'ok:{"loop_iteration_count":"8"}'],
    ['{"loop_iteration_count": "many"}', 'schema_mismatch'],
    ['{"iterations": 3}', 'schema_mismatch'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['The answer is three.', 'no_json'],
    ['{"loop_iteration_count": 1', 'truncated'],
    ["I can't help with that.", 'refused'],
    ['<think>long thought without end', 'empty'],
  ])('%j → %s', (raw, expected) => {
    expect(verdict(raw)).toBe(expected);
  });

  it('calls a reply cut at max tokens truncated', () => {
    expect(verdict('{"loop_iteration_count": ', 'length')).toBe('truncated');
  });
});
