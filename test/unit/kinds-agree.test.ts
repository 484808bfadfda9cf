import { execFileSync } from 'node:child_process';
import { COMPLEXITY_RESOLUTION } from '../../src/contracts/complexity.js';
import { QUESTION_KINDS } from '../../src/contracts/kinds.js';
import { tracerDir } from '../../src/paths.js';

describe('the kind list and the tracer agree', () => {
  it('every kind TypeScript accepts has tracer rules, and no other kind has', () => {
    const out = execFileSync(
      'python3',
      [
        '-c',
        'import json; from tracegate_tracer.queries import RULES; print(json.dumps(sorted(RULES)))',
      ],
      { cwd: tracerDir() },
    ).toString();
    expect(JSON.parse(out)).toEqual([...QUESTION_KINDS].sort());
  });
});

describe('the complexity resolution is one number in both languages', () => {
  it("the tracer's complexity.RESOLUTION equals COMPLEXITY_RESOLUTION", () => {
    // The search ranks candidates by the tracer's value and the host screens variants by its own:
    // were they to differ, searches would keep variants the screen then drops as `easier`.
    const out = execFileSync(
      'python3',
      ['-c', 'from tracegate_tracer.queries import complexity; print(repr(complexity.RESOLUTION))'],
      { cwd: tracerDir() },
    ).toString();
    expect(Number(out.trim())).toBe(COMPLEXITY_RESOLUTION);
  });
});
