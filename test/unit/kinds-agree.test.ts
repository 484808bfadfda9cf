import { execFileSync } from 'node:child_process';
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
