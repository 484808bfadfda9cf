// What a run writes, pure: the pipeline's state in, the pieces of results.json out
// (its records' clusters, the merged harvest, the results without their comparison).
import { environmentsDigest, instanceSetDigest } from '../stages/compare/provenance.js';
import { memorisationOf } from '../stages/compare/memorisation.js';
import { HISTORY_SCHEMA, indexRow } from '../contracts/history.js';
import { RESULTS_SCHEMA, type InstanceRecord, type Results } from '../contracts/results.js';
import { mergeRow } from '../adapters/history/index-merge.js';
import type { ReportContext } from '../stages/report/markdown.js';
import { describePrompt, PROMPT_VERSION, promptId } from '../stages/prompt/build.js';
import { summarizeQuery } from '../stages/query/accounting.js';
import { summarize } from '../stages/score/aggregate.js';
import type { LoadedInstance } from '../contracts/suite.js';
import type { ClientIdentity } from '../contracts/model.js';
import type { RunInput } from './run-input.js';
import type { HarvestSummary } from '../stages/harvest/types.js';

/** Two batches' harvests as one (a top-up harvests its items after the selection's). */
export function mergeHarvests(a: HarvestSummary, b: HarvestSummary): HarvestSummary {
  const names = new Set(a.environments.map((e) => e.name));
  const backends = new Set([a.backend, b.backend].filter((x) => x !== 'cache'));
  return {
    outcomes: new Map([...a.outcomes, ...b.outcomes]),
    cached: a.cached + b.cached,
    harvested: a.harvested + b.harvested,
    failed: a.failed + b.failed,
    ...((a.remembered ?? 0) + (b.remembered ?? 0)
      ? { remembered: (a.remembered ?? 0) + (b.remembered ?? 0) }
      : {}),
    backend: backends.size ? [...backends].sort().join('+') : 'cache',
    environments: [...a.environments, ...b.environments.filter((e) => !names.has(e.name))],
    resolved: new Map([...(a.resolved ?? []), ...(b.resolved ?? [])]),
  };
}

/** The harvest summary of a run that harvested nothing. */
export const NO_HARVEST: HarvestSummary = {
  outcomes: new Map(),
  cached: 0,
  harvested: 0,
  failed: 0,
  backend: 'cache',
  environments: [],
};

/**
 * results.json from a run's state: records in the order attempted (selection,
 * then top-up), the missing ones listed as incomplete, and the provenance the
 * gate compares on.
 */
export function assembleResults(state: {
  input: RunInput;
  attempted: readonly LoadedInstance[];
  records: ReadonlyMap<string, InstanceRecord>;
  harvest: HarvestSummary | undefined;
  identity: ClientIdentity;
  startedAt: string;
  incomplete?: string;
  variants?: Results['variants'];
}): Results {
  const { input, attempted, records } = state;
  const harvest = state.harvest ?? NO_HARVEST;
  const ordered = attempted
    .map((l) => records.get(l.instance.id))
    .filter((r): r is InstanceRecord => !!r);
  const missing = attempted.map((l) => l.instance.id).filter((id) => !records.has(id));
  const { scoring, worldFactor } = input.query.config;
  const summary = summarize(ordered, { scoring, worldFactor });
  const memorisation = input.selection.variants
    ? memorisationOf(ordered, input.gate.policy)
    : undefined;
  return {
    schema: RESULTS_SCHEMA,
    model: input.query.model,
    promptVersion: PROMPT_VERSION,
    prompt: describePrompt(input.query.config.prompt),
    query: summarizeQuery(ordered, state.identity, input.query.config.samples),
    commit: input.report.commit,
    startedAt: state.startedAt,
    finishedAt: new Date().toISOString(),
    harvest: {
      cached: harvest.cached,
      harvested: harvest.harvested,
      failed: harvest.failed,
      ...(harvest.remembered ? { remembered: harvest.remembered } : {}),
      backend: harvest.backend,
      environments: harvest.environments,
    },
    summary,
    ...(input.query.price
      ? {
          cost: {
            usd:
              (summary.tokensIn * input.query.price.input +
                summary.tokensOut * input.query.price.output) /
              1e6,
            price: input.query.price,
          },
        }
      : {}),
    provenance: {
      instances: instanceSetDigest(
        attempted.map((l) => ({ id: l.instance.id, contentHash: l.contentHash })),
      ),
      environments: environmentsDigest(harvest.environments),
      tracer: input.harvest.tracerDigest,
      prompt: promptId(input.query.config.prompt.mode),
      scorer: input.gate.scorer,
    },
    instances: ordered,
    ...(input.selection.rejected?.length ? { rejected: input.selection.rejected } : {}),
    ...(state.variants ? { variants: state.variants } : {}),
    ...(input.selection.recorded ? { selection: input.selection.recorded } : {}),
    ...(memorisation ? { memorisation } : {}),
    ...(input.selection.shard
      ? {
          shard: {
            ...input.selection.shard.plan,
            index: input.selection.shard.index,
            attempted: attempted.map((l): [string, string] => [l.instance.id, l.contentHash]),
          },
        }
      : {}),
    ...(state.incomplete || missing.length
      ? {
          incomplete: {
            reason: state.incomplete ?? 'not every selected instance was answered',
            missing,
          },
        }
      : {}),
  };
}

/**
 * The report's context: the trend's rows with this run as its newest point
 * (the rows the entry point read from the history, this run's row merged in).
 */
export function reportContext(report: RunInput['report'], results: Results): ReportContext {
  const { trend } = report;
  if (!trend) return {};
  const row = indexRow({
    schema: HISTORY_SCHEMA,
    name: trend.name,
    commit: report.commit ?? 'this run',
    recordedAt: results.finishedAt,
    ...(results.comparison ? { verdict: results.comparison.verdict } : {}),
    ...(results.accepted ? { accepted: results.accepted } : {}),
    results,
  });
  return { trend: { ...trend, rows: mergeRow(trend.rows, row) } };
}
