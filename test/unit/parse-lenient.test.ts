import { findCandidates } from '../../src/stages/parse/extract.js';
import { parseLenientAt, parseWhole } from '../../src/stages/parse/lenient.js';
import { stripReasoning } from '../../src/stages/parse/reasoning.js';
import { templateToSchema, validateAgainstTemplate } from '../../src/stages/parse/validate.js';

describe('lenient JSON reading', () => {
  it('reads one value and says where it ended', () => {
    const text = 'see {"a": [1, 2,], b: \'x\'} then more';
    const r = parseLenientAt(text, 4);
    expect(r).toEqual({ ok: true, value: { a: [1, 2], b: 'x' }, end: 26 });
  });

  it('tells an object cut by the end of text from one that is malformed', () => {
    expect(parseLenientAt('{"a": [1, 2', 0)).toMatchObject({ ok: false, eof: true });
    expect(parseLenientAt('{"a" 1}', 0)).toMatchObject({ ok: false, eof: false });
  });

  it('keeps strict JSON semantics for strict JSON', () => {
    const json = '{"s": "a\\"b\\u00e9\\n", "n": -1.5e3, "t": true, "z": null, "l": []}';
    expect(parseWhole(json)?.value).toEqual(JSON.parse(json));
  });

  // Speed is measured in scripts/bench-endpoint.mjs, not asserted here; this only checks
  // that adversarial nesting ends (no stack overflow) with no candidates.
  it('survives adversarial text (deep nesting, many braces)', () => {
    expect(findCandidates('{'.repeat(150_000)).values).toEqual([]);
    expect(findCandidates('[{'.repeat(50_000), true).values).toEqual([]);
  });
});

describe('reasoning blocks', () => {
  it.each([
    ['<think>a</think>b<think>c</think>d', 'bd'],
    ['<THINK>x</THINK> y', 'y'],
    ['before </think> after', 'after'],
    ['answer <think> never closed', 'answer'],
    ['<reasoning>r</reasoning>{"a": 1}', '{"a": 1}'],
    ['no reasoning', 'no reasoning'],
  ])('%j → %j', (raw, expected) => {
    expect(stripReasoning(raw)).toBe(expected);
  });
});

describe('template validation with zod', () => {
  it('builds a schema that requires every key, checks leaf types and drops extras', () => {
    const schema = templateToSchema({ a: 'int', b: ['str'], c: { d: 'bool' } });
    expect(schema.parse({ a: 1, b: ['x', 2], c: { d: 'TRUE' }, extra: 1 })).toEqual({
      a: 1,
      b: ['x', 2],
      c: { d: 'TRUE' },
    });
    expect(schema.safeParse({ a: 1, b: ['x'] }).success).toBe(false);
  });

  it('supports union leaves such as "int|null"', () => {
    expect(validateAgainstTemplate({ v: null }, { v: 'int|null' }).ok).toBe(true);
    expect(validateAgainstTemplate({ v: 'x' }, { v: 'int|null' }).ok).toBe(false);
  });

  it('names the path and the value of a mismatch', () => {
    const v = validateAgainstTemplate(
      { p: [{ line: 1 }, { line: 'x' }] },
      { p: [{ line: 'int' }] },
    );
    expect(v).toMatchObject({ ok: false, failure: 'schema_mismatch' });
    if (!v.ok) expect(v.detail).toMatch(/^\$\.p\[1\]\.line: .*got "x"/);
  });

  it('keeps an `answer` key when the template itself has one', () => {
    expect(validateAgainstTemplate({ answer: 3 }, { answer: 'int' })).toEqual({
      ok: true,
      value: { answer: 3 },
    });
  });
});
