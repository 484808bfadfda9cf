import { QUESTION_KINDS } from '../../contracts/kinds.js';
import type { LoadedInstance } from '../../contracts/suite.js';

/** What a suite holds: instances by kind, by package (environment) and both, and by Python. */
export interface SuiteStats {
  total: number;
  by_kind: Record<string, number>;
  by_package: Record<string, number>;
  by_kind_package: Record<string, Record<string, number>>;
  by_python: Record<string, number>;
}

const bump = (counts: Record<string, number>, key: string) =>
  (counts[key] = (counts[key] ?? 0) + 1);
const sorted = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The counts of a loaded suite (kinds in their canonical order, packages by name). */
export function suiteStats(instances: readonly LoadedInstance[]): SuiteStats {
  const byKind: Record<string, number> = {};
  const byPackage: Record<string, number> = {};
  const byPython: Record<string, number> = {};
  const both: Record<string, Record<string, number>> = {};
  for (const l of instances) {
    const kind = l.instance.kind;
    const pkg = l.instance.environment;
    bump(byKind, kind);
    bump(byPackage, pkg);
    bump(byPython, l.environment.python ?? 'image');
    bump((both[kind] ??= {}), pkg);
  }
  const kinds = QUESTION_KINDS.filter((k) => byKind[k]);
  return {
    total: instances.length,
    by_kind: Object.fromEntries(kinds.map((k) => [k, byKind[k]!])),
    by_package: sorted(byPackage),
    by_kind_package: Object.fromEntries(kinds.map((k) => [k, sorted(both[k]!)])),
    by_python: sorted(byPython),
  };
}

/** The kind × package table: one row per package, a column per kind (S1…M7), totals. */
export function statsTable(stats: SuiteStats, style: 'text' | 'markdown' = 'text'): string {
  const kinds = Object.keys(stats.by_kind);
  const short = kinds.map((k) => k.split('_')[0]!);
  const header = ['package', ...short, 'total', 'share'];
  const rows = Object.entries(stats.by_package).map(([pkg, n]) => [
    pkg,
    ...kinds.map((k) => String(stats.by_kind_package[k]?.[pkg] ?? 0)),
    String(n),
    `${((100 * n) / stats.total).toFixed(1)}%`,
  ]);
  const totals = [
    'total',
    ...kinds.map((k) => String(stats.by_kind[k])),
    String(stats.total),
    '100%',
  ];
  const all = [header, ...rows, totals];
  if (style === 'markdown') {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    return [
      line(header),
      line(header.map((_, i) => (i === 0 ? '---' : '---:'))),
      ...rows.map(line),
      line(totals.map((c) => `**${c}**`)),
    ].join('\n');
  }
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all
    .map((r) =>
      r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}
