/**
 * The leak audit over harvested items: each selected instance's cached
 * oracle entry → the prompt its model would be asked (promptFor, the same
 * call a run makes) → the audit's items, then the per-kind table
 * (stages/audit). docs/benchmark-validity.md holds the bundle's table.
 */
import type { CachedOracle } from '../contracts/oracle.js';
import type { LoadedInstance } from '../contracts/suite.js';
import { heuristicAnswer } from '../adapters/heuristic-model/heuristic.js';
import { cacheLayout } from '../adapters/stores/layout.js';
import { DirOracleCache } from '../adapters/stores/oracle-cache.js';
import { UsageError } from '../errors.js';
import { loadAnySuite, type Logger } from './config/assemble.js';
import {
  auditItems,
  auditTable,
  COPIERS,
  type Adversary,
  type AuditItem,
  type AuditRow,
} from '../stages/audit/audit.js';
import { DEFAULT_PROMPT_OPTIONS, type PromptOptions } from '../stages/prompt/build.js';
import { promptFor } from '../stages/query/answer.js';

/** Where harvested entries are read from (the oracle cache's directory store). */
export interface HarvestedEntries {
  keys(): string[];
  get(key: string): CachedOracle | undefined;
}

/**
 * The audit items of `instances` found in `entries`: an entry counts for the
 * instance it names with the same content hash (the newest harvest when
 * several environments' entries are cached).
 */
export function harvestedItems(
  instances: readonly LoadedInstance[],
  entries: HarvestedEntries,
  prompt: PromptOptions = DEFAULT_PROMPT_OPTIONS,
): AuditItem[] {
  const byId = new Map(instances.map((l) => [l.instance.id, l]));
  const newest = new Map<string, CachedOracle>();
  for (const key of entries.keys()) {
    const entry = entries.get(key);
    const meta = entry?.oracle.meta;
    const loaded = meta && byId.get(meta.instance_id);
    if (!entry || !loaded || meta.instance_hash !== loaded.contentHash) continue;
    const seen = newest.get(meta.instance_id);
    if (!seen || seen.oracle.meta.harvested_at < meta.harvested_at)
      newest.set(meta.instance_id, entry);
  }
  return instances.flatMap((loaded) => {
    const entry = newest.get(loaded.instance.id);
    if (!entry) return [];
    const messages = promptFor(loaded.instance, entry, prompt);
    return [
      {
        id: loaded.instance.id,
        kind: entry.oracle.question_kind,
        prompt: messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content)
          .join('\n'),
        template: entry.oracle.template_answer,
        oracle: entry.oracle.oracle_answer,
      },
    ];
  });
}

/**
 * The audit of `items` by the copiers and `more` (a caller's adversaries:
 * the demo heuristic is an adapter, passed in by the door).
 */
export function runAudit(
  items: readonly AuditItem[],
  more: Record<string, Adversary> = {},
): AuditRow[] {
  return auditItems(items, { ...COPIERS, ...more });
}

/**
 * `tracegate audit`: the suite's harvested items (from the cache directory's oracles) answered
 * by the prompt-only adversaries; the rows, their table, and how many items were found.
 */
export function auditCommand(
  options: { instances: string; cache: string },
  logger: Pick<Logger, 'warn'>,
): { rows: AuditRow[]; table: string; harvested: number; selected: number } {
  const suite = loadAnySuite(options.instances);
  for (const r of suite.rejected) logger.warn(`Skipping ${r.reason}`);
  const entries = new DirOracleCache(cacheLayout(options.cache).oracles, logger.warn);
  const items = harvestedItems(suite.instances, entries);
  if (!items.length)
    throw new UsageError(
      `no harvested oracle of the selected instances in ${options.cache}: run \`tracegate harvest --cache ${options.cache}\` first`,
    );
  const rows = runAudit(items, {
    'demo heuristic': (item) => JSON.parse(heuristicAnswer(item.prompt)) as unknown,
  });
  return {
    rows,
    table: auditTable(rows),
    harvested: items.length,
    selected: suite.instances.length,
  };
}
