import type { IndexRow } from '../../src/contracts/history.js';
import { at, sha } from './history.js';

/** A hostile kind name: quotes, a tag, a backtick fence, a line break, a closing details. */
export const HOSTILE_KIND = 'S9_Bogus"><svg onload=alert(1)>```\n</details>';

const VERDICTS = ['no-baseline', 'pass', 'pass', 'fail', 'inconclusive', 'pass'];

/**
 * A reviewed history: 12 commits of `tracegate` on main (S5 not run on two of
 * them, one failure accepted by label), 3 of `nightly`, and hostile strings
 * in every field a foreign index could fill.
 */
export function dashboardRows(): IndexRow[] {
  const rows: IndexRow[] = [];
  for (let i = 0; i < 12; i++) {
    const s1 = 0.5 + 0.04 * i;
    const s2 = 0.3 + ((i * 7) % 5) * 0.05;
    const s5 = i === 4 || i === 5 ? undefined : 0.8 - 0.02 * i;
    const byKind: Record<string, number> = { S1_IntraProceduralCFG: s1, S2_Loops: s2 };
    if (s5 !== undefined) byKind.S5_Exceptions = s5;
    if (i >= 9) byKind[HOSTILE_KIND] = 0.25;
    const values = Object.values(byKind);
    rows.push({
      name: 'tracegate',
      commit: sha(`main-${i}`),
      ...(i ? { parent: sha(`main-${i - 1}`) } : {}),
      branch: i === 7 ? '<script>alert("branch")</script>' : 'main',
      recordedAt: at(i * 60),
      verdict: i === 10 ? '<b>weird</b>' : VERDICTS[i % VERDICTS.length]!,
      ...(i === 3 ? { accepted: true } : {}),
      accuracy: Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1e4) / 1e4,
      total: 40 + i,
      byKind,
      model: i === 11 ? `acme"coder'<b>` : 'acme-coder',
      revision: i === 11 ? '</title><img src=x onerror=alert(1)>' : `ckpt-${i}`,
      promptVersion: 'p3',
      scorer: 'tracegate-strict@1',
    });
  }
  for (let i = 0; i < 3; i++)
    rows.push({
      name: 'nightly',
      commit: sha(`nightly-${i}`),
      branch: 'main',
      recordedAt: at(i * 60 + 30),
      verdict: 'pass',
      accuracy: 0.6 + 0.05 * i,
      total: 200,
      byKind: { M2_Loops: 0.6 + 0.05 * i },
      model: 'acme-coder',
    });
  return rows;
}

/** How many points each series of a run should draw: rows with a value, per series. */
export function expectedPoints(rows: readonly IndexRow[], name: string): Record<string, number> {
  const ofName = rows.filter((r) => r.name === name);
  const counts: Record<string, number> = { overall: ofName.length };
  for (const r of ofName)
    for (const kind of Object.keys(r.byKind)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
