import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { questionExcerpt } from '../../src/stages/report/excerpt.js';
import { bundledInstancesDir } from '../../src/paths.js';

/** A W1 question on a seeded mutant, as tracer/tracegate_tracer/prompt/questions.py renders it. */
const MUTANT =
  'Run the test `test_click_completion.py::test_complete_option_names_skips_hidden` with pytest from the ' +
  'instance directory (a pytest id). The target function is `click.parser._OptionParser._match_short_opt` ' +
  '(qualified name `_OptionParser._match_short_opt`) in `click/parser.py`; "the target" below means it. ' +
  "The repository's code is changed for this question: on line 396 of `click/parser.py`, `1` is replaced " +
  'by `2` (the code shown is the changed code). When the runner runs this test once, what is its outcome ' +
  '(`passed`, `failed` or `error`)? If it does not pass, which exception type ends it (`exception_type`)? ' +
  'Definitions: A test passes when its setup, call and teardown all pass. Answer as JSON of exactly this ' +
  'shape, where "str" names each value\'s type: {"outcome": "str", "exception_type": "str|null"}';

describe('what a question asks, without the parts every question shares', () => {
  it("the tracer's question: the target and the asking sentence, not the run, definitions or shape", () => {
    const instance = JSON.parse(
      readFileSync(
        join(bundledInstancesDir(), 'core', 'click-s6-parse-args-deepest-chain', 'instance.json'),
        'utf8',
      ),
    ) as { question: string };
    const q = questionExcerpt(instance.question);
    expect(q.target).toBe('click.core.Command.parse_args');
    expect(q.ask).toMatch(/^Consider invocation 1 of the target\. Among the calls made while/);
    expect(q.ask).toMatch(/outermost first, whatever their module\.$/);
    expect(q.changed).toBeUndefined();
  });

  it('a seeded change is named by its line, not quoted', () => {
    expect(questionExcerpt(MUTANT)).toEqual({
      target: 'click.parser._OptionParser._match_short_opt',
      changed: { line: '396', file: 'click/parser.py' },
      ask:
        'When the runner runs this test once, what is its outcome (`passed`, `failed` or `error`)? ' +
        'If it does not pass, which exception type ends it (`exception_type`)?',
    });
  });

  it('several tests, a question without definitions, SWE-Flux questions, and any other text', () => {
    expect(
      questionExcerpt(
        'Run the tests `t.py::a`, `t.py::b` with pytest from the instance directory, in that order, as one ' +
          'session (pytest ids). The target function is `calc.core.total` (qualified name `total`) in ' +
          '`calc/core.py`; "the target" below means it. How often? Answer as JSON of exactly this shape: {}',
      ),
    ).toEqual({ target: 'calc.core.total', ask: 'How often?' });
    expect(
      questionExcerpt(
        'Run `calc_qa/core/files/testcase.py::TestAccumulatorOrder`. In what order are methods of ' +
          '`calc.core.Accumulator` called (qualified names)?',
      ),
    ).toEqual({
      ask: 'In what order are methods of `calc.core.Accumulator` called (qualified names)?',
    });
    expect(questionExcerpt('How many times does the loop turn?')).toEqual({
      ask: 'How many times does the loop turn?',
    });
  });
});
