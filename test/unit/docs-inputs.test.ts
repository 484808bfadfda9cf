import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers/packed.js';

/**
 * The inputs as documented: docs/inputs.md describes every input action.yml declares, and the
 * README's grouped tables (essential, the gate) name only inputs that exist.
 */
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const declared = Object.keys(
  (parse(read('action.yml')) as { inputs: Record<string, unknown> }).inputs,
);

/** The inputs a markdown table's first column names (`a` / `b` rows name several). */
function tableInputs(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) =>
      [...l.split(' | ')[0]!.matchAll(/`([a-z][\w-]*)(?:: [\w-]+)?`/g)].map((m) => m[1]!),
    );
}

describe('the inputs as documented', () => {
  it('docs/inputs.md describes every input of action.yml, and no other', () => {
    const documented = new Set(tableInputs(read('docs/inputs.md')));
    expect(declared.filter((i) => !documented.has(i))).toEqual([]);
    expect([...documented].filter((i) => !declared.includes(i))).toEqual([]);
  });

  it("the README's tables name only inputs that exist, and the essential ones first", () => {
    const readme = read('README.md');
    const inputs = readme.slice(readme.indexOf('## Inputs'), readme.indexOf('## Outputs'));
    const named = tableInputs(inputs);
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((i) => !declared.includes(i))).toEqual([]);
    expect(named.slice(0, 2)).toEqual(['endpoint', 'model']);
  });
});
