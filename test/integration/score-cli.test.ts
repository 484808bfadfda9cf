import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir } from '../helpers/cli.js';

const DIST_CLI = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'cli',
  'index.js',
);

const PAIRS = [
  { id: 'exact', oracle: { loop_iteration_count: 3 }, prediction: { loop_iteration_count: 3 } },
  {
    id: 'bool-for-int',
    oracle: { loop_iteration_count: 1 },
    prediction: { loop_iteration_count: true },
  },
  { id: 'bare-ext', oracle: { file: 'click/parser.py' }, prediction: { file: 'py' } },
  { id: 'wrong', oracle: { covered_lines: [1, 2] }, prediction: { covered_lines: [1, 3] } },
];

describe('tracegate score (the bundled CLI)', () => {
  const dir = tempDir('tg-score-');
  const file = join(dir, 'pairs.jsonl');
  writeFileSync(file, PAIRS.map((p) => JSON.stringify(p)).join('\n') + '\n');

  it.each([
    ['swe-flux', [true, true, true, false]],
    ['strict', [true, false, false, false]],
  ])('--scoring %s prints one verdict per pair, in order', (mode, expected) => {
    const out = execFileSync(process.execPath, [DIST_CLI, 'score', '--scoring', mode, file], {
      encoding: 'utf8',
    });
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; correct: boolean });
    expect(lines).toEqual(PAIRS.map((p, i) => ({ id: p.id, correct: expected[i] })));
  });

  it('refuses an unknown mode and a missing file with what to do, and names unscorable lines', async () => {
    const unknown = await runCli(['score', '--scoring', 'lenient', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--scoring must be one of strict, swe-flux, got "lenient"');
    const missing = spawnSync(process.execPath, [DIST_CLI, 'score', join(dir, 'nope.jsonl')], {
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"oracle": 1, "prediction": 1}\n{"oracle": 1}\n[1]\n');
    const partly = await runCli(['score', broken]);
    expect(partly.code).toBe(2);
    expect(partly.stdout.trim().split('\n')).toEqual([
      '{"id":1,"correct":true}',
      '{"id":2,"correct":false,"error":"no \\"prediction\\" key"}',
      '{"id":3,"correct":false,"error":"not a JSON object"}',
    ]);
    expect(partly.stderr).toContain('line 2: no "prediction" key');
    expect(partly.stderr).toContain('line 3: not a JSON object');
  });
});
