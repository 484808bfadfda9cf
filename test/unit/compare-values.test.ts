import { compareValues } from '../../src/score/compare-values.js';

describe('compareValues (SWE-Flux scoring rules)', () => {
  it('accepts numbers within the tolerance and rejects beyond it', () => {
    expect(compareValues(1.0, 1.0000000001)).toBe(true);
    expect(compareValues(1.0, 1.01)).toBe(false);
  });

  it('keeps order for paths and ignores it for set-valued keys', () => {
    const path = { executed_path: [{ line: 1 }, { line: 2 }] };
    expect(compareValues(path, { executed_path: [{ line: 2 }, { line: 1 }] })).toBe(false);
    expect(compareValues({ covered_lines: [1, 2, 3] }, { covered_lines: [3, 1, 2] })).toBe(true);
    expect(compareValues({ covered_lines: [1, 2, 2] }, { covered_lines: [1, 1, 2] })).toBe(false);
  });

  it('requires every expected key and ignores extra keys', () => {
    expect(compareValues({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(compareValues({ a: 1, b: 2 }, { a: 1 })).toBe(false);
  });

  it('coerces scalar strings', () => {
    expect(compareValues({ n: 3 }, { n: '3' })).toBe(true);
    expect(compareValues({ ok: true }, { ok: 'True' })).toBe(true);
    expect(compareValues({ n: 3 }, { n: 'three' })).toBe(false);
  });

  it('matches file and func identifiers by path or dotted suffix', () => {
    expect(compareValues({ file: 'click/parser.py' }, { file: 'src/click/parser.py' })).toBe(true);
    expect(
      compareValues(
        { func: 'click.parser._OptionParser.parse_args' },
        { func: '_OptionParser.parse_args' },
      ),
    ).toBe(true);
    expect(
      compareValues({ func: 'click.parser.parse_args' }, { func: 'click.core.parse_args' }),
    ).toBe(false);
    expect(compareValues({ value: 'a.b' }, { value: 'b' })).toBe(false);
  });

  it('accepts any ||| alternative', () => {
    expect(
      compareValues(
        { exception_type: 'KeyError|||LookupError' },
        { exception_type: 'LookupError' },
      ),
    ).toBe(true);
    expect(
      compareValues({ exception_type: 'KeyError|||LookupError' }, { exception_type: 'IndexError' }),
    ).toBe(false);
  });

  it('parses lists given as JSON strings', () => {
    expect(compareValues({ covered_lines: [1, 2] }, { covered_lines: '[2, 1]' })).toBe(true);
  });
});
