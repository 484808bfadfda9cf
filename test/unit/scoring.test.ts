import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreLines } from '../../src/app/commands/score.js';
import { pyEquals } from '../../src/stages/score/python/equality.js';
import { jsonLoads } from '../../src/stages/score/python/json-reader.js';
import { literalEval } from '../../src/stages/score/python/literal-reader.js';
import { pyFloat } from '../../src/stages/score/python/numbers.js';
import { PyTuple } from '../../src/stages/score/python/values.js';
import { SCORERS } from '../../src/stages/score/scorer.js';
import { perfectMatching } from '../../src/stages/score/strict.js';

const DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'scoring.md');

/** [rule, oracle_answer, prediction, swe-flux verdict, strict verdict]; values as JSON text (big integers kept). */
type Case = [string, string, string, boolean, boolean];

const CASES: Case[] = [
  // Unwrapping of the prediction.
  ['unwrap answer', '{"n": 3}', '{"answer": {"n": 3}}', true, true],
  ['unwrap oracle_answer', '3', '{"oracle_answer": 3}', true, true],
  ['unwrap first key only', '3', '{"oracle_answer": 4, "answer": 3}', false, false],
  ['unwrap once', '3', '{"answer": {"answer": 3}}', false, false],
  ['wrapper the oracle has', '{"answer": 3}', '{"answer": 3}', false, true],
  // Numbers.
  ['float within tolerance', '1.0', '1.0000000001', true, true],
  ['float beyond tolerance', '1.0', '1.01', false, false],
  ['near zero (absolute tolerance)', '0.0', '0.0000001', true, true],
  ['int equal', '42', '42', true, true],
  ['int off by one, small', '42', '43', false, false],
  ['int off by one, ≥ 10⁶', '1000000', '1000001', true, false],
  [
    'big ints, exact',
    '123456789012345678901234567890',
    '123456789012345678901234567890',
    true,
    true,
  ],
  [
    'big ints, off by one',
    '123456789012345678901234567890',
    '123456789012345678901234567891',
    true,
    false,
  ],
  [
    'int beyond a float (SWE-Flux raises)',
    '1' + '0'.repeat(400),
    '1' + '0'.repeat(400),
    false,
    true,
  ],
  ['int vs integral float', '2', '2.0', true, true],
  ['int vs float nearby', '2', '2.0000001', true, true],
  ['NaN never equal', 'NaN', 'NaN', false, false],
  ['Infinity equal', 'Infinity', 'Infinity', true, true],
  // Test ids: the same test however its file's path is spelled (rule 8), nothing more.
  [
    'test id with ./',
    '{"test": "tests/test_a.py::test_b"}',
    '{"test": "./tests/test_a.py::test_b"}',
    true,
    true,
  ],
  [
    'test id with //',
    '{"safe_tests": ["tests/test_a.py::test_b"]}',
    '{"safe_tests": ["tests//test_a.py::test_b"]}',
    true,
    true,
  ],
  [
    'test id, other test',
    '{"test": "tests/test_a.py::test_b"}',
    '{"test": "./tests/test_a.py::test_c"}',
    false,
    false,
  ],
  [
    'test id, other directory',
    '{"test": "tests/test_a.py::test_b"}',
    '{"test": "test_a.py::test_b"}',
    false,
    false,
  ],
  [
    'test id, module form',
    '{"test": "tests/test_a.py::test_b"}',
    '{"test": "tests.test_a::test_b"}',
    false,
    false,
  ],
  [
    'test id, ./ inside the name',
    '{"test": "tests/test_a.py::test_b"}',
    '{"test": "tests/test_a.py::./test_b"}',
    false,
    false,
  ],
  ['./ outside test and path keys', '{"value": "tests/a"}', '{"value": "./tests/a"}', true, false],
  // Booleans and numbers.
  ['true for 1', '1', 'true', true, false],
  ['1 for true', 'true', '1', true, false],
  ['false for 0', '{"n": 0}', '{"n": false}', true, false],
  ['true for 1.0', '1.0', 'true', true, false],
  ['bool equal', 'true', 'true', true, true],
  ['bool differs', 'true', 'false', false, false],
  // Scalars sent as text.
  ['int as text', '282', '"282"', true, true],
  ['int as text, wrong', '9', '"8"', false, false],
  ['int as text with plus', '5', '"+5"', true, true],
  ['float as text', '8.0', '"8.0"', true, true],
  ['float text with underscore', '1000.0', '"1_000.0"', true, true],
  ['inf as text', 'Infinity', '"inf"', true, true],
  ['bool as text', 'true', '"True"', true, true],
  ['bool as "1"', 'true', '"1"', false, false],
  ['1 as "true"', '1', '"true"', false, false],
  ['null as text', 'null', '"None"', true, true],
  ['not a number', '3', '"three"', false, false],
  ['number for a string', '"3"', '3', false, false],
  ['null equal', 'null', 'null', true, true],
  ['null vs 0', 'null', '0', false, false],
  // Containers sent as text.
  ['list as JSON text', '[1, 2]', '"[1, 2]"', true, true],
  ['list as Python text', '["a", "b"]', "\"['a', 'b']\"", true, true],
  ['dict as Python text', '{"ok": true}', '"{\'ok\': True}"', true, true],
  ['list text, wrong content', '[1, 2]', '"[1, 3]"', false, false],
  ['dict text for a list', '[1]', '"{\\"a\\": 1}"', false, false],
  ['tuple text is not a list', '[1, 2]', '"(1, 2)"', false, false],
  ['mixed true and quotes parse as neither', '[true, "a"]', '"[true, \'a\']"', false, false],
  ['mappingproxy oracle', '"mappingproxy({\'a\': 1})"', '{"a": 1}', true, true],
  [
    'mappingproxy both',
    '"mappingproxy({\'a\': 1})"',
    "\"mappingproxy({'a': 1, 'b': 2})\"",
    true,
    true,
  ],
  ['mappingproxy wrong', '"mappingproxy({\'a\': 1})"', '{"a": 2}', false, false],
  // Lists and dicts.
  ['ordered list', '{"executed_path": [1, 2]}', '{"executed_path": [2, 1]}', false, false],
  [
    'set key, any order',
    '{"covered_lines": [1, 2, 3]}',
    '{"covered_lines": [3, 1, 2]}',
    true,
    true,
  ],
  [
    'set key, multiset',
    '{"covered_lines": [1, 2, 2]}',
    '{"covered_lines": [1, 1, 2]}',
    false,
    false,
  ],
  ['set key, length', '{"covered_lines": [1, 2]}', '{"covered_lines": [1, 2, 2]}', false, false],
  [
    'set key, greedy misses a matching',
    '{"covered_lines": [1.0, 1.0000015]}',
    '{"covered_lines": [1.0000008, 1.0]}',
    false,
    true,
  ],
  ['extra keys ignored', '{"a": 1}', '{"a": 1, "b": 2}', true, true],
  ['missing key', '{"a": 1, "b": 2}', '{"a": 1}', false, false],
  ['prototype key is not a key', '{"constructor": 1}', '{}', false, false],
  ['__proto__ is a key', '{"__proto__": 1}', '{"__proto__": 1}', true, true],
  // Identifiers.
  [
    'file with repo prefix',
    '{"file": "click/parser.py"}',
    '{"file": "src/click/parser.py"}',
    true,
    true,
  ],
  ['file without .py', '{"file": "click/parser.py"}', '{"file": "click/parser"}', true, true],
  ['file as module', '{"file": "click/parser.py"}', '{"file": "click.parser"}', true, true],
  ['file backslashes', '{"file": "click/parser.py"}', '{"file": "click\\\\parser.py"}', true, true],
  ['file ./ prefix', '{"file": "click/parser.py"}', '{"file": "./click/parser.py"}', true, true],
  ['file "py" (bare extension)', '{"file": "click/parser.py"}', '{"file": "py"}', true, false],
  ['file other module', '{"file": "click/parser.py"}', '{"file": "click/core.py"}', false, false],
  [
    'func qualified vs bare',
    '{"func": "click.parser._OptionParser.parse_args"}',
    '{"func": "_OptionParser.parse_args"}',
    true,
    true,
  ],
  [
    'func other module',
    '{"func": "click.parser.parse_args"}',
    '{"func": "click.core.parse_args"}',
    false,
    false,
  ],
  ['func component, not substring', '{"func": "a.parse_args"}', '{"func": "args"}', false, false],
  [
    'class repr',
    '{"class": "rich.text.Text"}',
    '{"class": "<class \'rich.text.Text\'>"}',
    true,
    true,
  ],
  // `.` → `/` outside path keys.
  ['dots in a value', '{"value": "1.5"}', '{"value": "1/5"}', true, false],
  ['dots in a name', '{"name": "a.b"}', '{"name": "a/b"}', true, false],
  ['suffix in a value', '{"value": "a.b"}', '{"value": "b"}', false, false],
  ['whitespace around a value', '{"value": "abc"}', '{"value": " abc "}', true, true],
  // Conditions.
  ['condition bare expression', '{"condition": "if x > 0:"}', '{"condition": "x > 0"}', true, true],
  [
    'condition without colon',
    '{"condition": "if x > 0:"}',
    '{"condition": "if x > 0"}',
    true,
    true,
  ],
  ['condition while vs if', '{"condition": "while x:"}', '{"condition": "if x:"}', true, false],
  ['condition elif vs if', '{"condition": "elif x:"}', '{"condition": "if x:"}', true, false],
  ['condition other expression', '{"condition": "if x:"}', '{"condition": "if y:"}', false, false],
  // Enumerations.
  ['status case', '{"status": "PASSED"}', '{"status": "passed"}', true, true],
  ['status qualified', '{"status": "PASSED"}', '{"status": "Status.PASSED"}', true, true],
  ['type qualified', '{"type": "ValueError"}', '{"type": "builtins.ValueError"}', true, true],
  ['type differs', '{"type": "ValueError"}', '{"type": "TypeError"}', false, false],
  // Alternatives in the oracle.
  ['alternative', '"a|||b"', '"b"', true, true],
  ['no alternative', '"a|||b"', '"c"', false, false],
  ['empty alternative', '"a|||"', '"a"', false, false],
];

function verdicts(oracle: string, prediction: string): { compat: boolean; strict: boolean } {
  const [o, p] = [jsonLoads(oracle), jsonLoads(prediction)];
  if (o === undefined || p === undefined)
    throw new Error(`bad case JSON: ${oracle} / ${prediction}`);
  return { compat: SCORERS['swe-flux'].score(o, p), strict: SCORERS.strict.score(o, p) };
}

describe('the two scorers, rule by rule', () => {
  it.each(CASES)(
    '%s: %s vs %s → swe-flux %s, strict %s',
    (_rule, oracle, prediction, compat, strict) => {
      expect(verdicts(oracle, prediction)).toEqual({ compat, strict });
    },
  );

  it('has both verdicts for every rule family, and pairs where the modes differ each way', () => {
    const differ = CASES.filter(([, , , c, s]) => c !== s);
    expect(differ.filter(([, , , c]) => c).length).toBeGreaterThanOrEqual(10); // compat's false accepts
    expect(differ.filter(([, , , c]) => !c).length).toBeGreaterThanOrEqual(3); // compat's false rejects
  });

  it('docs/scoring.md lists exactly the pairs where the modes differ, with their verdicts', () => {
    const doc = readFileSync(DOCS, 'utf8');
    const section = doc.split('## Where the two modes differ')[1]!.split('\n## ')[0]!;
    const rows = section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => l.split(' | ').map((c) => c.replace(/^\|? ?`?|`? ?\|?$/g, '')));
    const listed = rows.map(([oracle, prediction, compat, strict]) => {
      expect(verdicts(oracle!, prediction!)).toEqual({
        compat: compat === 'correct',
        strict: strict === 'correct',
      });
      return `${oracle} ${prediction}`;
    });
    const differ = CASES.filter(([, , , c, s]) => c !== s).map(([, o, p]) => `${o} ${p}`);
    expect(listed.sort()).toEqual(differ.sort());
  });
});

describe("Python's values", () => {
  it('reads JSON as json.loads does: big ints digit for digit, NaN and Infinity, strict strings', () => {
    expect(jsonLoads('12345678901234567890')).toBe(12345678901234567890n);
    expect(jsonLoads('[NaN, -Infinity]')).toEqual([NaN, -Infinity]);
    expect(jsonLoads('"a\nb"')).toBeUndefined(); // a raw control character
    expect(jsonLoads("{'a': 1}")).toBeUndefined();
    expect(jsonLoads('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(jsonLoads('[1, 2,]')).toBeUndefined();
  });

  it('reads literals as ast.literal_eval does', () => {
    expect(literalEval("{'a': (1, 2), 'b': [True, None]}")).toEqual({
      a: new PyTuple([1, 2]),
      b: [true, null],
    });
    expect(literalEval('\'a\' "b"')).toBe('ab');
    expect(literalEval('[1, 2,]')).toEqual([1, 2]);
    expect(literalEval('-0x10')).toBe(-16);
    expect(literalEval('1_000')).toBe(1000);
    expect(literalEval('007')).toBeUndefined();
    expect(literalEval('[true]')).toBeUndefined();
    expect(literalEval("f'x'")).toBeUndefined();
    expect(literalEval('{[1]: 2}')).toBeUndefined(); // unhashable key
    expect(literalEval("r'\\n'")).toBe('\\n');
    expect(literalEval("'\\x41\\u00e9\\101'")).toBe('Aé\u0041');
    expect(literalEval('(1)')).toBe(1);
    expect(literalEval('(1,)')).toEqual(new PyTuple([1]));
    expect(literalEval('1, 2')).toEqual(new PyTuple([1, 2]));
  });

  it("compares as Python's == and float() do", () => {
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals(1, 1.0)).toBe(true);
    expect(pyEquals(9007199254740993n, 9007199254740992)).toBe(false); // exact int/float comparison
    expect(pyEquals([1, true], [true, 1])).toBe(true);
    expect(pyEquals(new PyTuple([1]), [1])).toBe(false);
    expect(pyFloat(' 1e3 ')).toBe(1000);
    expect(pyFloat('Infinity')).toBe(Infinity);
    expect(pyFloat('0x10')).toBeUndefined();
    expect(pyFloat('')).toBeUndefined();
    expect(pyFloat('1__0')).toBeUndefined();
  });

  it('finds a perfect matching where a greedy pass does not', () => {
    const same = (e: unknown, p: unknown) => e === p || (e === 'a' && p === 'b');
    expect(perfectMatching(['a', 'b'], ['b', 'a'], same)).toBe(true);
    expect(perfectMatching(['a', 'b'], ['b', 'c'], same)).toBe(false);
  });
});

describe('tracegate score', () => {
  it('writes one verdict per line, in order, ids kept (line numbers when absent), bad lines named', () => {
    const input = [
      '{"id": "a", "oracle": 1000000, "prediction": 1000001}',
      '',
      '{"oracle": {"file": "x/y.py"}, "prediction": {"file": "py"}}',
      'not json',
      '{"id": 12345678901234567890, "oracle": 1}',
    ].join('\n');
    const compat = scoreLines(input, 'swe-flux');
    const strict = scoreLines(input, 'strict');
    expect(compat.lines.slice(0, 2)).toEqual([
      '{"id":"a","correct":true}',
      '{"id":3,"correct":true}',
    ]);
    expect(strict.lines.slice(0, 2)).toEqual([
      '{"id":"a","correct":false}',
      '{"id":3,"correct":false}',
    ]);
    expect(strict.lines.slice(2)).toEqual([
      '{"id":4,"correct":false,"error":"not one JSON value"}',
      '{"id":12345678901234567890,"correct":false,"error":"no \\"prediction\\" key"}',
    ]);
    expect(strict.bad).toEqual(['line 4: not one JSON value', 'line 5: no "prediction" key']);
  });
});
