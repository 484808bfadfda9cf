import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pyFloat, pyInt } from '../../src/stages/score/python/numbers.js';
import { scoreSweFlux } from '../../src/stages/score/swe-flux.js';

const TABLE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'python-numbers.jsonl',
);

/** A string and what Python's int() and float() made of it (null: ValueError), by scripts/python-number-table.py. */
interface Row {
  s: string;
  int: string | null;
  float: string | null;
}

const rows = readFileSync(TABLE, 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => JSON.parse(line) as Row);

function fromRepr(repr: string): number {
  if (repr === 'nan') return NaN;
  if (repr === 'inf') return Infinity;
  if (repr === '-inf') return -Infinity;
  return Number(repr);
}

/** Code points, not the text: most failures are about characters that do not show. */
function codePoints(s: string): string {
  const points = [...s].map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`);
  const shown = points.slice(0, 12).join(' ');
  return points.length > 12 ? `${shown} … (${points.length} code points)` : shown;
}

function short(value: unknown): string {
  const text = String(value);
  return text.length > 40 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
}

/** Every row where ours differs from Python's, as `code points: Python's → ours`, the first 20 in full. */
function disagreements(ours: (row: Row) => unknown, pythons: (row: Row) => unknown) {
  const differing = rows.filter((row) => !Object.is(ours(row), pythons(row)));
  return {
    count: differing.length,
    first: differing
      .slice(0, 20)
      .map((row) => `${codePoints(row.s)}: ${short(pythons(row))} → ${short(ours(row))}`),
  };
}

describe("Python's int() and float() of a str, row for row against the real interpreter", () => {
  it('has a table of at least 5,000 spellings', () => {
    expect(rows.length).toBeGreaterThanOrEqual(5000);
  });

  it('pyInt agrees with int() on every row', () => {
    const ours = (row: Row) => {
      const n = pyInt(row.s);
      return n === undefined ? null : String(n);
    };
    expect(disagreements(ours, (row) => row.int)).toEqual({ count: 0, first: [] });
  });

  it('pyFloat agrees with float() on every row', () => {
    const ours = (row: Row) => pyFloat(row.s) ?? null;
    const pythons = (row: Row) => (row.float === null ? null : fromRepr(row.float));
    expect(disagreements(ours, pythons)).toEqual({ count: 0, first: [] });
  });

  it('reads a 10,000-digit Devanagari number in well under a second', () => {
    const devanagari = (digits: string) =>
      digits.replace(/[0-9]/g, (d) => String.fromCodePoint(0x966 + Number(d)));
    const digits = devanagari('1234567890'.repeat(1000));
    const started = performance.now();
    expect(pyInt(digits)).toBeUndefined(); // beyond int()'s 4300 digits
    expect(pyFloat(digits)).toBe(Infinity);
    expect(pyFloat(`${devanagari('0.')}${digits}`)).toBe(0.12345678901234568);
    expect(pyInt(`${digits}x`)).toBeUndefined();
    expect(pyFloat(`${digits}_`)).toBeUndefined();
    expect(pyFloat(`1${' '.repeat(100_000)}x`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe('the compat scorer reads number strings as SWE-Flux does, through int() and float()', () => {
  // Each verdict is SWE-Flux's compare_values' under Python 3.11.
  it.each([
    { oracle: 12, prediction: '١٢', correct: true, why: 'Arabic-Indic digits' },
    {
      oracle: 12.5,
      prediction: ' １２.５ ',
      correct: true,
      why: 'fullwidth digits, spaces around',
    },
    { oracle: 1, prediction: '\x1c1', correct: true, why: 'str.strip() takes \\x1c off first' },
    {
      oracle: 1,
      prediction: '\ufeff1',
      correct: false,
      why: 'a byte-order mark is not whitespace',
    },
    { oracle: 1000, prediction: '1_000', correct: true, why: 'an underscore between digits' },
    { oracle: 7, prediction: '१_', correct: false, why: 'a trailing underscore' },
    { oracle: 300, prediction: '٣e٢', correct: true, why: 'an exponent in Arabic-Indic digits' },
    { oracle: 1, prediction: '𝟏', correct: true, why: 'a mathematical bold digit' },
    { oracle: -3, prediction: '\u22123', correct: false, why: 'a minus sign is not a hyphen' },
    {
      oracle: Infinity,
      prediction: '1'.repeat(4301),
      correct: false,
      why: '4301 digits: int() refuses them and SWE-Flux does not retry float()',
    },
    {
      oracle: Infinity,
      prediction: `${'1'.repeat(4301)}.0`,
      correct: true,
      why: '4301 digits and a point: float()',
    },
  ])('$why', ({ oracle, prediction, correct }) => {
    expect(scoreSweFlux(oracle, prediction)).toBe(correct);
  });
});
