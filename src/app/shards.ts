// A run past one machine: the selection split over a matrix (each job answers a part, clusters
// whole), and the parts merged back into the one run an unsharded job would have written, before
// the gate compares it, reports it and records it once.
import type { GatePolicy } from '../stages/compare/gate.js';
import type { InstanceRecord, Results } from '../contracts/results.js';
import type { LoadedInstance } from '../contracts/suite.js';
import type { Logger } from './config/assemble.js';
import type { RunOptions } from './config/options.js';
import { UsageError } from '../errors.js';
import { canonicalJson } from '../util/hash.js';
import { environmentsDigest, instanceSetDigest } from '../stages/compare/provenance.js';
import { memorisationOf } from '../stages/compare/memorisation.js';
import { summarizeQuery } from '../stages/query/accounting.js';
import { summarize } from '../stages/score/aggregate.js';
import { passes, type ScoringRules } from '../stages/score/verdict.js';
import { familyOf } from '../families/registry.js';
import type { GenerationSettings } from '../contracts/model.js';
import { expectedCost, partIds, planShards } from '../stages/select/shard.js';
import { sortedDrops, variantOf, variantRank } from '../stages/variants/variants.js';
import type { SelectionSlice } from './run-input.js';

/**
 * This job's part of the selection: the plan (clusters whole, balanced by expected cost: the
 * baseline's request latency where it answered the item, the kind's share of a harvest
 * otherwise), the part's index, and the whole selection it was split from.
 */
export function shardSelection(
  options: Pick<RunOptions, 'shard' | 'cluster-by'>,
  whole: LoadedInstance[],
  baseline: Results | undefined,
  logger: Pick<Logger, 'log'>,
): NonNullable<SelectionSlice['shard']> {
  const { index, count } = options.shard!;
  const latency = new Map(baseline?.instances.map((r) => [r.id, r.latencyMs]));
  const plan = planShards(whole, count, options['cluster-by'], (l) =>
    expectedCost(l.instance.kind, latency.get(l.instance.id)),
  );
  const mine = partIds(plan, index).length;
  logger.log(
    `Shard ${index} of ${count}: ${mine} of the selection's ${whole.length} instance(s), ` +
      `expected cost ${plan.expected[index - 1]} of ${plan.expected.join(' / ')} (clusters kept whole)`,
  );
  return { index, plan, whole };
}

/** One shard's results and where they were read from (named in every error). */
export interface ShardResults {
  results: Results;
  source: string;
}

/** What the merge needs beside the shards: the rules they were scored and are judged by. */
export interface MergeRules extends ScoringRules {
  policy: GatePolicy;
  /** The scorer id the merge runs under: the shards must have been scored by it. */
  scorer: string;
}

type Shard = NonNullable<Results['shard']>;

/** What every shard of one run must share, with the words an error names it by. */
const SHARED: [string, (r: Results) => unknown][] = [
  ['the plan (selection, count, parts)', (r) => planOf(r.shard!)],
  ['the model', (r) => r.model],
  ['the prompt', (r) => [r.promptVersion, r.prompt]],
  ['the scorer', (r) => r.provenance.scorer],
  ['the tracer', (r) => r.provenance.tracer],
  ['the selection', (r) => r.selection],
  ['the variants epoch', (r) => r.variants && [r.variants.epoch, r.variants.mode]],
  ['the commit', (r) => r.commit],
  ['the generation settings', (r) => r.query && [r.query.api, r.query.settings, r.query.samples]],
];

const planOf = (s: Shard) => [s.count, s.selection, s.ids, s.part];

/**
 * The shards as the one run they are parts of: checked to belong together (one plan, model,
 * prompt, scorer, tracer, selection and epoch; each part at most once), records in the order an
 * unsharded run writes them (the selection's, then the variants'), and everything computed from
 * records computed again over all of them. A missing part's items are `incomplete.missing` and
 * `merged.missing` names the part: the gate is then at best inconclusive.
 */
export function mergeShards(shards: readonly ShardResults[], rules: MergeRules): Results {
  if (!shards.length)
    throw new UsageError('merge: no shard results were given (each shard writes results.json)');
  for (const s of shards)
    if (!s.results.shard)
      throw new UsageError(
        `merge: ${s.source} is not a shard's results (it has no "shard" field): ` +
          'run each matrix job with shard: i/n and merge what they wrote',
      );
  const [first, ...rest] = shards as (ShardResults & { results: { shard: Shard } })[];
  for (const s of rest)
    for (const [what, of] of SHARED)
      if (canonicalJson(of(s.results) ?? null) !== canonicalJson(of(first!.results) ?? null))
        throw new UsageError(
          `merge: ${first!.source} (shard ${first!.results.shard.index}) and ${s.source} ` +
            `(shard ${s.results.shard!.index}) differ in ${what}: they are not parts of one run. ` +
            'Every matrix job must run the same inputs with its own shard: i/n.',
        );
  const head = first!.results;
  const plan = head.shard;
  if (head.provenance.scorer !== rules.scorer)
    throw new UsageError(
      `merge: the shards were scored by ${head.provenance.scorer}, this merge by ${rules.scorer}: ` +
        'give the merge the same scoring and world-factor as the shards',
    );
  const byIndex = new Map<number, ShardResults>();
  for (const s of shards) {
    const index = s.results.shard!.index;
    const seen = byIndex.get(index);
    if (seen)
      throw new UsageError(
        `merge: shard ${index} of ${plan.count} is given twice (${seen.source} and ${s.source}): give each shard once`,
      );
    byIndex.set(index, s);
  }
  const missingParts = Array.from({ length: plan.count }, (_, i) => i + 1).filter(
    (i) => !byIndex.has(i),
  );
  const present = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, s]) => s.results);

  const records = new Map<string, InstanceRecord>();
  const unanswered: string[] = [];
  for (const [index, s] of [...byIndex.entries()].sort(([a], [b]) => a - b)) {
    const part = checkedPart(s, plan, index, rules, records);
    for (const record of part.records) records.set(record.id, record);
    unanswered.push(...part.unanswered);
  }
  const ordered = orderedRecords(plan, records, head.variants);
  const missing = [
    ...present.flatMap((r) => r.incomplete?.missing ?? []),
    ...unanswered,
    ...missingParts.flatMap((i) => partIds(plan, i)),
  ];
  const reasons = [
    ...(missingParts.length
      ? [
          `shard${missingParts.length > 1 ? 's' : ''} ${missingParts.join(', ')} of ${plan.count} gave no results`,
        ]
      : []),
    ...present
      .filter((r) => r.incomplete)
      .map((r) => `shard ${r.shard!.index}: ${r.incomplete!.reason}`),
    ...(unanswered.length
      ? [
          `${unanswered.length} item(s) of the shards' parts have no record (${unanswered.slice(0, 5).join(', ')})`,
        ]
      : []),
  ];
  const environments = mergedEnvironments(present, shards);
  const summary = summarize(ordered, rules);
  const memorisation = head.variants ? memorisationOf(ordered, rules.policy) : undefined;
  const usd = present.reduce((n, r) => n + (r.cost?.usd ?? 0), 0);
  const harvested = (f: (h: Results['harvest']) => number | undefined) =>
    present.reduce((n, r) => n + (f(r.harvest) ?? 0), 0);
  const remembered = harvested((h) => h.remembered);
  const backends = new Set(present.map((r) => r.harvest.backend).filter((b) => b !== 'cache'));
  // What every shard shares; what is one shard's alone (its part, its lack of a verdict) is not.
  const common: Results = { ...head };
  delete common.shard;
  delete common.comparison;
  delete common.accepted;
  return {
    ...common,
    ...(head.query
      ? {
          query: summarizeQuery(
            ordered,
            {
              api: head.query.api,
              settings: head.query.settings as unknown as GenerationSettings,
              endpoint: head.model.endpoint,
              model: head.model.name,
            },
            head.query.samples,
          ),
        }
      : {}),
    startedAt: present.map((r) => r.startedAt).sort()[0]!,
    finishedAt: present
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    harvest: {
      cached: harvested((h) => h.cached),
      harvested: harvested((h) => h.harvested),
      failed: harvested((h) => h.failed),
      ...(remembered ? { remembered } : {}),
      backend: backends.size ? [...backends].sort().join('+') : 'cache',
      environments,
    },
    summary,
    ...(head.cost ? { cost: { usd, price: head.cost.price } } : {}),
    provenance: {
      ...head.provenance,
      instances: instanceSetDigest(
        present.flatMap((r) =>
          r.shard!.attempted.map(([id, contentHash]) => ({ id, contentHash })),
        ),
      ),
      environments: environmentsDigest(environments),
    },
    instances: ordered,
    ...(head.variants ? { variants: mergedVariants(present) } : {}),
    ...(memorisation ? { memorisation } : {}),
    merged: { count: plan.count, missing: missingParts },
    ...(reasons.length || missing.length
      ? {
          incomplete: {
            reason: reasons.join('; ') || 'not every selected instance was answered',
            missing,
          },
        }
      : {}),
  };
}

/**
 * One part checked against the plan before anything of it is trusted: its index within the plan,
 * its records exactly its part's items (and their variants, in a run with variants), each once in
 * the whole merge, each verdict what its parsed answer scores against its oracle under the merge's
 * rules, and its counts whole and in range. What it should hold and does not is returned as
 * unanswered (the merge is then incomplete), never invented.
 */
function checkedPart(
  s: ShardResults,
  plan: Shard,
  index: number,
  rules: MergeRules,
  seen: ReadonlyMap<string, InstanceRecord>,
): { records: InstanceRecord[]; unanswered: string[] } {
  const refuse = (what: string) =>
    new UsageError(
      `merge: ${s.source} (shard ${index} of ${plan.count}) ${what}: ` +
        "a part's results.json is as its job wrote it; merge what the matrix jobs wrote",
    );
  if (!Number.isSafeInteger(plan.count) || index > plan.count)
    throw refuse(`names a part past the plan's ${plan.count}`);
  const mine = new Set(partIds(plan, index));
  const own = new Set<string>();
  for (const record of s.results.instances) {
    const variant = variantOf(record.id);
    const belongs = variant ? !!s.results.variants && mine.has(variant.of) : mine.has(record.id);
    if (!belongs) throw refuse(`holds ${record.id}, which is not an item of its part`);
    if (own.has(record.id) || seen.has(record.id))
      throw refuse(`holds ${record.id} twice (or another part does too)`);
    own.add(record.id);
    const again = rescored(record, rules);
    if (again !== undefined && again !== record.correct)
      throw refuse(
        `says ${record.id} is ${record.correct ? 'correct' : 'wrong'}, but its parsed answer ` +
          `${again ? 'passes' : 'does not pass'} against its oracle`,
      );
  }
  const counts = [
    ...['cached', 'harvested', 'failed', 'remembered'].map(
      (k) => (s.results.harvest as Record<string, unknown>)[k],
    ),
    ...(s.results.variants ? [s.results.variants.tried, s.results.variants.valid] : []),
  ];
  if (counts.some((n) => n !== undefined && !(Number.isSafeInteger(n) && (n as number) >= 0)))
    throw refuse('has a count that is not a whole number from 0 (harvest or variants)');
  const usd = s.results.cost?.usd;
  if (usd !== undefined && !(Number.isFinite(usd) && usd >= 0 && usd < 1e9))
    throw refuse(`has a cost of ${usd} USD`);
  const declared = new Set(s.results.incomplete?.missing ?? []);
  const unanswered = [...mine].filter((id) => !own.has(id) && !declared.has(id));
  return { records: s.results.instances, unanswered };
}

/**
 * A record's verdict again from its parsed answer and its oracle, where one can be computed here
 * (a B1/B2 reply is scored by running it: undefined); a record without a parsed answer is wrong.
 */
function rescored(record: InstanceRecord, rules: ScoringRules): boolean | undefined {
  if (!record.scored || record.oracle === undefined || familyOf(record.kind).runsReplies)
    return undefined;
  if (record.parsed === undefined || record.error) return false;
  return passes(record.kind, record.oracle, record.parsed, rules);
}

/**
 * Records in the order one run of the whole selection writes them: the selection's, then the
 * variants' (`add`: by their rank at the epoch, as the run chose them; `only`: their originals').
 */
function orderedRecords(
  plan: Shard,
  records: ReadonlyMap<string, InstanceRecord>,
  variants: Results['variants'],
): InstanceRecord[] {
  const position = new Map(plan.ids.map((id, i) => [id, i]));
  const originals = plan.ids.flatMap((id) => records.get(id) ?? []);
  const fresh = [...records.values()].filter((r) => variantOf(r.id) && !position.has(r.id));
  const key = (r: InstanceRecord): string | number => {
    const { of, epoch } = variantOf(r.id)!;
    return variants?.mode === 'only' ? (position.get(of) ?? Infinity) : variantRank(of, epoch);
  };
  fresh.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return [...originals, ...fresh];
}

/** The environments of every shard, once each; one name with two digests is no single run. */
function mergedEnvironments(
  present: readonly Results[],
  shards: readonly ShardResults[],
): NonNullable<Results['harvest']['environments']> {
  const byName = new Map<string, NonNullable<Results['harvest']['environments']>[number]>();
  for (const r of present)
    for (const e of r.harvest.environments ?? []) {
      const seen = byName.get(e.name);
      if (seen && seen.digest !== e.digest)
        throw new UsageError(
          `merge: environment "${e.name}" has digest ${seen.digest} in one shard and ${e.digest} in another ` +
            `(${shards.map((s) => s.source).join(', ')}): the shards ran different recipes or base images`,
        );
      byName.set(e.name, seen ?? e);
    }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The shards' variant summaries added up (each search ran in exactly one shard). */
function mergedVariants(present: readonly Results[]): NonNullable<Results['variants']> {
  const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
    for (const [k, n] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + n;
  };
  const head = present[0]!.variants!;
  const out: NonNullable<Results['variants']> = {
    epoch: head.epoch,
    mode: head.mode,
    tried: 0,
    valid: 0,
    dropped: {},
    byKind: {},
    unvariable: {},
    drops: [],
  };
  for (const r of present) {
    const v = r.variants!;
    out.tried += v.tried;
    out.valid += v.valid;
    add(out.dropped, v.dropped);
    add(out.unvariable!, v.unvariable);
    out.drops!.push(...(v.drops ?? []));
    for (const [kind, k] of Object.entries(v.byKind ?? {})) {
      const into = (out.byKind![kind] ??= { tried: 0, valid: 0, dropped: {} });
      into.tried += k.tried;
      into.valid += k.valid;
      add(into.dropped, k.dropped);
    }
  }
  sortedDrops(out.drops!);
  return out;
}
