import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUESTION_KINDS } from '../../src/contracts/kinds.js';
import { QUERY_OPTIONS } from '../../src/contracts/query-options.js';
import { loadSuite } from '../../src/adapters/suite/load.js';
import { queryOptionProblem } from '../../src/adapters/suite/query-options.js';

/**
 * A query's options are checked when its suite loads, against the table the
 * tracer's rules generate (src/contracts/query-options.ts): a misspelt option
 * would otherwise be ignored by the tracer and the question asked without it.
 */
describe('query options at load', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracegate-query-options-'));
    mkdirSync(join(dir, 'environments'));
    writeFileSync(
      join(dir, 'environments', 'plain.json'),
      JSON.stringify({ name: 'plain', python: '3.12', packages: [] }),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes one instance directory (its test file beside it) and loads the suite. */
  function load(id: string, kind: string, query: Record<string, unknown>, extra = {}) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, 'test_m.py'), 'def test_it():\n    pass\n');
    writeFileSync(
      join(dir, id, 'instance.json'),
      JSON.stringify({
        id,
        kind,
        environment: 'plain',
        tests: ['test_m.py::test_it'],
        target: { file: 'm.py', function: 'f' },
        query,
        ...extra,
      }),
    );
    return loadSuite(dir);
  }

  it('refuses a misspelt option, naming the instance, the option and the options there are', () => {
    const suite = load('typo', 'M1_IntraProceduralCFG', { mode: 'line_counts', bogus: 1 });
    expect(suite.instances).toEqual([]);
    expect(suite.rejected).toEqual([
      {
        file: join(dir, 'typo', 'instance.json'),
        id: 'typo',
        reason:
          `${join(dir, 'typo', 'instance.json')}: query.bogus: unknown option for ` +
          'M1_IntraProceduralCFG mode "line_counts" in instance "typo" (options: mode, lines, rows, max_value_chars)',
      },
    ]);
  });

  it('names the default mode when the query names none', () => {
    const suite = load('loop', 'S2_Loops', { invocation: 1, loop_lines: 3 });
    expect(suite.rejected[0]?.reason).toContain(
      'query.loop_lines: unknown option for S2_Loops mode "count" (the default) in instance "loop" ' +
        '(options: mode, invocation, loop_line, max_value_chars)',
    );
  });

  it('refuses a mode the kind does not have', () => {
    const suite = load('wrong-mode', 'S2_Loops', { mode: 'line_counts', invocation: 1 });
    expect(suite.rejected[0]?.reason).toContain(
      'query.mode: unknown mode "line_counts" for S2_Loops in instance "wrong-mode" (modes: count, nth_value)',
    );
  });

  it('refuses a value outside an option’s closed set', () => {
    const suite = load('scope', 'S6_InterProceduralCFG', {
      mode: 'order',
      invocation: 1,
      scope: 'sideways',
    });
    expect(suite.rejected[0]?.reason).toContain(
      'query.scope: "sideways" is not a value of this option for S6_InterProceduralCFG mode "order" ' +
        'in instance "scope" (values: "direct", "transitive")',
    );
  });

  it('loads a query that uses its options, and leaves a parser instance’s query to its parser', () => {
    expect(
      load('ok', 'M2_Loops', {
        mode: 'total',
        loop_line: 3,
        unreached: 'zero',
        max_value_chars: 900,
      }).instances,
    ).toHaveLength(1);
    const custom = load(
      'custom',
      'S6_InterProceduralCFG',
      { anything: ['the parser reads it'] },
      { parser: 'parser.py', question: 'How deep?', template_answer: { depth: 'int' } },
    );
    expect(custom.rejected).toEqual([]);
  });

  it('every kind takes the empty query (its default mode): SWE-Flux instances carry one', () => {
    for (const kind of QUESTION_KINDS)
      expect(queryOptionProblem({ id: 'x', kind, query: {} })).toBeUndefined();
  });

  it('world-model kinds have no value cap to raise (nothing is recorded)', () => {
    expect(QUERY_OPTIONS.W2_PeakMemory.modes.peak).toEqual({ mode: ['peak'] });
    expect(
      queryOptionProblem({ id: 'w', kind: 'W1_Outcome', query: { max_value_chars: 900 } }),
    ).toMatch(/^query\.max_value_chars: unknown option for W1_Outcome mode "outcome"/);
  });
});
