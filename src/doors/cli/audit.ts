import { loadAnySuite, type Logger } from '../../app/config/assemble.js';
import { harvestedItems, runAudit } from '../../app/audit.js';
import { heuristicAnswer } from '../../adapters/heuristic-model/heuristic.js';
import { DirOracleCache } from '../../adapters/stores/oracle-cache.js';
import { cacheLayout } from '../../adapters/stores/layout.js';
import { auditTable } from '../../stages/audit/audit.js';
import { ExitCode, UsageError } from '../../errors.js';
import { bundledInstancesDir } from '../../paths.js';
import { parseCommandArgs, type Io } from './flags.js';

export const AUDIT_USAGE = `Usage: tracegate audit [--instances DIR] [--cache DIR] [--json]
  The leak audit of harvested items (harvest them first): prompt-only adversaries (one copying
  every function and test the prompt names into the template, in prompt order and sorted; the
  demo heuristic) answer each item from its prompt alone; per kind, their scores beside the
  floor (the best constant answer). Exit 1 when one beats a kind's floor by more than 5 points.`;

/** `tracegate audit`: reads the suite and the oracle cache; harvests and asks nothing. */
export function auditCommand(args: string[], io: Io, logger: Logger): number {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        instances: { type: 'string' },
        cache: { type: 'string' },
        json: { type: 'boolean' },
      },
      strict: true,
    },
    AUDIT_USAGE,
  );
  const suite = loadAnySuite(values.instances ?? bundledInstancesDir());
  for (const r of suite.rejected) logger.warn(`Skipping ${r.reason}`);
  const cacheDir = values.cache ?? '.tracegate/cache';
  const entries = new DirOracleCache(cacheLayout(cacheDir).oracles, logger.warn);
  const items = harvestedItems(suite.instances, entries);
  if (!items.length)
    throw new UsageError(
      `no harvested oracle of the selected instances in ${cacheDir}: run \`tracegate harvest --cache ${cacheDir}\` first`,
    );
  const rows = runAudit(items, {
    'demo heuristic': (item) => JSON.parse(heuristicAnswer(item.prompt)) as unknown,
  });
  io.stdout(values.json ? JSON.stringify(rows, null, 2) : auditTable(rows));
  const leaks = rows.filter((r) => r.leaks.length);
  logger.log(
    `audit: ${items.length} of ${suite.instances.length} instance(s) harvested; ` +
      (leaks.length
        ? `${leaks.length} kind(s) leak: ${leaks.map((r) => `${r.kind} (${r.leaks.join(', ')})`).join('; ')}`
        : 'no adversary beats a floor by more than 5 points'),
  );
  return leaks.length ? ExitCode.GateFailed : ExitCode.Pass;
}
