// A shard's report: what its part answered, and that the verdict is the merge's (never posted).
import type { Results } from '../../contracts/results.js';
import { pct } from '../compare/describe.js';
import { codeSpan, escapeMarkdown } from './escape.js';

/** The report of one shard (`shard: i/n`): its part's accuracy by kind; no comparison. */
export function renderShardReport(results: Results): string {
  const shard = results.shard!;
  const { summary } = results;
  const part = shard.part.filter((p) => p === shard.index).length;
  const variants = results.instances.filter((r) => r.id.includes('@v')).length;
  const kinds = Object.entries(summary.byKind).sort(([a], [b]) => (a < b ? -1 : 1));
  return [
    `## tracegate — ${escapeMarkdown(results.model.name)}${results.model.revision ? ` @ ${codeSpan(results.model.revision)}` : ''} — shard ${shard.index} of ${shard.count}`,
    '',
    `Part ${shard.index} of ${shard.count}: ${part} of the selection's ${shard.ids.length} item(s)` +
      (variants ? ` and ${variants} fresh variant(s)` : '') +
      `; ${pct(summary.accuracy)} correct (${summary.correct}/${summary.total}).` +
      ' A part is never compared alone: the verdict is the merge of every part (`tracegate merge`).',
    ...(results.incomplete
      ? [
          '',
          `Incomplete: ${escapeMarkdown(results.incomplete.reason)} (${results.incomplete.missing.length} missing).`,
        ]
      : []),
    '',
    '| kind | items | correct | accuracy |',
    '|---|---:|---:|---:|',
    ...kinds.map(([kind, k]) => `| ${kind} | ${k.total} | ${k.correct} | ${pct(k.accuracy)} |`),
    '',
  ].join('\n');
}
