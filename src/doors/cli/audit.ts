import type { Logger } from '../../app/config/assemble.js';
import { auditCommand as auditCommandOf } from '../../app/audit.js';
import { ExitCode } from '../../errors.js';
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
  const { rows, table, harvested, selected } = auditCommandOf(
    {
      instances: values.instances ?? bundledInstancesDir(),
      cache: values.cache ?? '.tracegate/cache',
    },
    logger,
  );
  io.stdout(values.json ? JSON.stringify(rows, null, 2) : table);
  const leaks = rows.filter((r) => r.leaks.length);
  logger.log(
    `audit: ${harvested} of ${selected} instance(s) harvested; ` +
      (leaks.length
        ? `${leaks.length} kind(s) leak: ${leaks.map((r) => `${r.kind} (${r.leaks.join(', ')})`).join('; ')}`
        : 'no adversary beats a floor by more than 5 points'),
  );
  return leaks.length ? ExitCode.GateFailed : ExitCode.Pass;
}
