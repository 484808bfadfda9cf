import { statsTable, suiteStats } from '../../adapters/suite/stats.js';
import { bundledInstancesDir } from '../../paths.js';
import { loadAnySuite, type Logger } from '../config/assemble.js';

/** `tracegate stats`: the kind × package table of a suite (default: the bundled benchmark). */
export function statsCommand(
  instances: string | undefined,
  format: 'json' | 'markdown' | 'text',
  logger: Logger,
): string {
  const suite = loadAnySuite(instances ?? bundledInstancesDir());
  for (const r of suite.rejected) logger.warn(`Skipping ${r.reason}`);
  const stats = suiteStats(suite.instances);
  return format === 'json' ? JSON.stringify(stats, null, 2) : statsTable(stats, format);
}
