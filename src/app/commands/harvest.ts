import {
  harvestDeps,
  loadSelection,
  oracleStores,
  type Lifecycle,
  type Logger,
} from '../config/assemble.js';
import type { HarvestOptions } from '../config/options.js';
import { harvestOnly } from '../pipeline.js';
import { tracerDigest } from '../../adapters/tracer/digest.js';
import { tracerDir } from '../../paths.js';
import { InterruptedError } from '../../errors.js';

/**
 * `tracegate harvest`: the selection's oracles into the cache, asking no model. An interrupted
 * harvest keeps what it stored and says how to go on.
 */
export async function harvestCommand(
  options: HarvestOptions,
  logger: Logger,
  lifecycle: Lifecycle,
) {
  const { suite, selected } = loadSelection(options, logger);
  const summary = await harvestOnly(
    selected,
    { tracerDigest: tracerDigest(tracerDir()) },
    {
      ...logger,
      signal: lifecycle.signal,
      harvest: harvestDeps(options, logger, suite, lifecycle),
      stores: oracleStores(options, logger),
    },
  );
  if (lifecycle.signal?.aborted)
    throw new InterruptedError(
      String(lifecycle.signal.reason),
      `the cache ${options.cache}`,
      `${summary.harvested} oracle(s) harvested before it are stored in the cache ${options.cache} ` +
        `(beside ${summary.cached} found there); rerun the same command to harvest only the ` +
        `${summary.failed} left.`,
    );
  return { summary, rejected: suite.rejected };
}
