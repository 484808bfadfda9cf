import type { CachedOracle } from '../../contracts/oracle.js';
import type { PromptOptions } from '../prompt/build.js';
import type { InstanceRecord } from '../../contracts/results.js';
import { answerInstance } from './answer.js';
import { DEFAULT_TOOL_BUDGET } from './agent.js';
import { Limiter, runPool } from './pool.js';
import type { ScoringMode } from '../score/scorer.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { ModelClient } from '../../contracts/model.js';
import type { Verifier } from '../../contracts/comet.js';
import type { ToolBudget } from '../../contracts/results.js';
import type { SourceTree } from '../tools/tree.js';

/** How the query stage asks: prompt, samples per instance, requests in flight. */
export interface QueryConfig {
  prompt: PromptOptions;
  samples: number;
  concurrency: number;
  /** Which scorer decides each answer (default strict). */
  scoring?: ScoringMode;
  /** World-model kinds: the pass rule's factor for numbers (default 2). */
  worldFactor?: number;
  /** `context: repo`: the limits of each question's conversation with the tools. */
  toolBudget?: ToolBudget;
}

/**
 * Answers every item, at most `concurrency` requests in flight, handing each
 * record to `keep` as it completes. The first failure that ends the run stops
 * new work; answers in flight are still kept; then it propagates.
 */
export async function queryInstances(
  /** With `context: repo`, each item's tree: what its model's tools read. */
  items: readonly { loaded: LoadedInstance; entry: CachedOracle; tree?: SourceTree }[],
  client: ModelClient,
  config: QueryConfig,
  keep: (record: InstanceRecord) => void,
  signal?: AbortSignal,
  /** B1/B2: where their replies run (contracts/comet.ts). */
  verifier?: Verifier,
): Promise<void> {
  const limiter = new Limiter(config.concurrency);
  await runPool(
    items,
    config.concurrency,
    async ({ loaded, entry, tree }) => {
      keep(
        await answerInstance(loaded, entry, client, {
          samples: config.samples,
          prompt: config.prompt,
          limiter,
          ...(config.scoring ? { scoring: config.scoring } : {}),
          ...(config.worldFactor ? { worldFactor: config.worldFactor } : {}),
          ...(verifier ? { verifier } : {}),
          ...(tree ? { repo: { tree, budget: config.toolBudget ?? DEFAULT_TOOL_BUDGET } } : {}),
        }),
      );
    },
    signal,
  );
}
