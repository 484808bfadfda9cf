// Fresh variants: the search over an epoch's pool of one-literal edits of an instance's tests
// (tracer/tracegate_tracer/variants/search.py), then the first candidates that change the answer harvested
// alone like any instance, kept only if they pass the generator's screen with an oracle of their own.
import type { QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import { answerProblem, harvestRule, sizeProblem } from '../screen/screen.js';
import { answerInstance } from '../query/answer.js';
import { passes } from '../score/verdict.js';
import { sha256 } from '../../util/hash.js';
import type { LoadedInstance, VariantEdit } from '../../contracts/suite.js';
import type { ModelClient } from '../../contracts/model.js';
import { COMPLEXITY_RESOLUTION, type Complexity } from '../../contracts/complexity.js';
import { oracleDigest } from '../kinds/digest.js';
import { shownText } from '../kinds/answerable.js';

export type VariantMode = { mode: 'add'; count: number } | { mode: 'only' };

/** Why a variant was dropped: the generator's rules, or what the search and the strictness check found. */
export type VariantRule =
  | ReturnType<typeof harvestRule>
  | 'empty-answer'
  | 'too-large'
  | 'demo-model-right'
  | 'same-oracle'
  | 'original-answer-passes'
  | 'easier'
  | 'no-candidate'
  | 'original-failed';

/** Why an instance has no variant at all (counted, never searched). */
export type Unvariable = 'world-model-kind' | 'bug-kind' | 'runs-in-checkout' | 'own-parser';

/** Per kind: instances searched, variants kept, dropped by rule. */
export interface KindVariants {
  tried: number;
  valid: number;
  dropped: Partial<Record<VariantRule, number>>;
}

/** What results.json records of the variants of a run. */
export interface VariantSummary {
  epoch: number;
  mode: 'add' | 'only';
  /** Instances whose variant was searched, variants kept, and dropped by rule. */
  tried: number;
  valid: number;
  dropped: Partial<Record<VariantRule, number>>;
  byKind: Partial<Record<QuestionKind, KindVariants>>;
  /** Selected instances that cannot vary, by reason (world-model kinds are measured, not traced). */
  unvariable: Partial<Record<Unvariable, number>>;
  /** Each drop: the variant's id, kind, rule and what failed it (its first candidate's). */
  drops: Dropped[];
}

/** A variant's id: the instance's, `@v` and the epoch (no instance id holds `@`: never a clash). */
export const variantId = (id: string, epoch: number): string => `${id}@v${epoch}`;

/** The instance a variant id is of, and the epoch (undefined for an instance that is no variant). */
export function variantOf(id: string): { of: string; epoch: number } | undefined {
  const at = id.lastIndexOf('@v');
  if (at < 0 || !/^\d+$/.test(id.slice(at + 2))) return undefined;
  return { of: id.slice(0, at), epoch: Number(id.slice(at + 2)) };
}

/**
 * Candidates harvested alone per instance and round, in the search's order: the first that passes
 * is kept. One: the first candidate of a search passes most often, and each harvest is a fresh
 * pytest run (checked against the search's answer); a search whose candidate failed gets its next
 * one in the next round.
 */
export const VARIANT_TRIES = 1;
/** Rounds of candidates: at most VARIANT_TRIES × VARIANT_ROUNDS candidates of a search are harvested. */
export const VARIANT_ROUNDS = 4;

/** Why an instance cannot vary, or undefined when it can. */
export function unvariable(l: LoadedInstance): Unvariable | undefined {
  const fixed = familyOf(l.instance.kind).fixed;
  if (fixed) return fixed;
  if (l.instance.cwd !== 'instance') return 'runs-in-checkout';
  if (l.instance.parser) return 'own-parser';
  return undefined;
}

/** Where an instance's variant stands among a run's (`add`): a hash of the epoch and its id. */
export const variantRank = (id: string, epoch: number): string =>
  sha256(String(epoch), 'variant', id);

/**
 * The searches of a selection at `epoch`: of `count` instances (`add`; chosen
 * by a hash of the epoch and id) or of each (`only`), among those that can
 * vary (not a world-model kind: a measured test is not perturbed; not run in a
 * checkout or by their own parser: their inputs are not the instance's files,
 * or their answer is not the rule's). Each search is a harvest of its own.
 * A shard chooses `among` the whole selection and keeps its own part's, so the
 * shards together search exactly what one run of the whole would.
 */
export function searchesOf(
  selected: readonly LoadedInstance[],
  mode: VariantMode,
  epoch: number,
  among: readonly LoadedInstance[] = selected,
): LoadedInstance[] {
  const eligible = among.filter((l) => !l.variant && !unvariable(l));
  const mine = new Set(selected.map((l) => l.instance.id));
  const chosen =
    mode.mode === 'only'
      ? eligible
      : [...eligible]
          .map((l) => ({ l, rank: variantRank(l.instance.id, epoch) }))
          .sort((a, b) => (a.rank < b.rank ? -1 : 1))
          .slice(0, mode.count)
          .map(({ l }) => l);
  return chosen
    .filter((l) => mine.has(l.instance.id))
    .map((l) => ({
      ...l,
      instance: { ...l.instance, id: `${variantId(l.instance.id, epoch)}~search` },
      contentHash: sha256(l.contentHash, 'variant-search', String(epoch)),
      variant: { epoch, of: l.instance.id, search: true },
    }));
}

/**
 * One candidate the search found to change the answer: its index in the pool, its edit, in words,
 * and the answer the search's run gave it.
 */
interface FoundCandidate extends VariantEdit {
  index: number;
  what: string;
  answer?: unknown;
}

/** The search's answer: the candidates that change the answer, in pool order, and the others counted. */
interface SearchAnswer {
  candidates: FoundCandidate[];
  pool: number;
  /** Of the pool, the candidates that edit what a call site of the target depends on. */
  targeted: number;
  same: number;
  failed: number;
  unreached: number;
  unanswered: number;
  unparsed: number;
  /** Candidates never run: the search stopped at the first chunk of the pool that found enough. */
  unrun?: number;
  /** Why the search itself could not run (a hang, a crash, no trace): no candidate this epoch. */
  search_failed?: string;
}

const isCandidate = (c: unknown): c is FoundCandidate => {
  const x = c as Partial<FoundCandidate> | null;
  return (
    typeof x === 'object' &&
    x !== null &&
    Number.isInteger(x.index) &&
    typeof x.file === 'string' &&
    Array.isArray(x.edits) &&
    x.edits.length > 0 &&
    typeof x.what === 'string'
  );
};

/**
 * The search's answer, its candidates in its order (the hardest first) except that those whose
 * answer the screen would find too large go last: the hardest variant of a wide answer can outgrow
 * the cap, and a round spent harvesting it is a round lost.
 */
function searchAnswer(outcome: HarvestOutcome | undefined): SearchAnswer | undefined {
  if (outcome?.status !== 'ok') return undefined;
  const answer = outcome.entry.oracle.oracle_answer as Partial<SearchAnswer> | undefined;
  if (!Array.isArray(answer?.candidates) || !answer.candidates.every(isCandidate)) return undefined;
  const large = (c: FoundCandidate) => ('answer' in c && sizeProblem(c.answer) ? 1 : 0);
  return {
    ...(answer as SearchAnswer),
    candidates: [...answer.candidates].sort((a, b) => large(a) - large(b)),
  };
}

/** How many candidates a search found (0 when it gave no list). */
export function foundCount(
  search: LoadedInstance,
  outcomes: ReadonlyMap<string, HarvestOutcome>,
): number {
  return searchAnswer(outcomes.get(search.instance.id))?.candidates.length ?? 0;
}

/** The variants to harvest: the first `upTo` candidates of each search, in its order. */
export function candidatesOf(
  searches: readonly LoadedInstance[],
  outcomes: ReadonlyMap<string, HarvestOutcome>,
  upTo = VARIANT_TRIES,
): LoadedInstance[] {
  return searches.flatMap((s) =>
    (searchAnswer(outcomes.get(s.instance.id))?.candidates ?? [])
      .slice(0, upTo)
      .map(({ index, file, edits, ...found }) => ({
        ...s,
        instance: {
          ...s.instance,
          id: `${variantId(s.variant!.of, s.variant!.epoch)}#${index}`,
        },
        contentHash: sha256(
          s.contentHash,
          'variant',
          String(s.variant!.epoch),
          String(index),
          JSON.stringify({ file, edits }),
        ),
        variant: {
          epoch: s.variant!.epoch,
          of: s.variant!.of,
          candidate: index,
          edit: { file, edits },
          ...('answer' in found ? { searched: { answer: found.answer } } : {}),
        },
      })),
  );
}

export interface Dropped {
  id: string;
  kind: QuestionKind;
  rule: VariantRule;
  detail: string;
}

/**
 * Keeps, per searched instance, the first candidate that passes the
 * generator's screen (harvested, an answer that says something and fits, not
 * what the demo model answers) with an oracle of its own: not the original's,
 * and not one the original's answer passes under the scorer (a model that
 * answers a variant with what it memorised of the original is wrong).
 */
export async function screenVariants(
  searches: readonly LoadedInstance[],
  candidates: readonly LoadedInstance[],
  outcomes: ReadonlyMap<string, HarvestOutcome>,
  demo: ModelClient,
): Promise<{ valid: LoadedInstance[]; dropped: Dropped[] }> {
  const valid: LoadedInstance[] = [];
  const dropped: Dropped[] = [];
  for (const s of searches) {
    const { of, epoch } = s.variant!;
    const id = variantId(of, epoch);
    const drop = (rule: VariantRule, detail: string) =>
      dropped.push({ id, kind: s.instance.kind, rule, detail });
    const searched = outcomes.get(s.instance.id);
    const found = searchAnswer(searched);
    if (!found) {
      const reason =
        searched?.status === 'ok'
          ? 'the search gave no candidate list'
          : (searched?.reason ?? 'not harvested');
      drop(reason.startsWith('no variant') ? 'no-candidate' : harvestRule(reason), reason);
      continue;
    }
    if (found.search_failed) {
      drop('no-candidate', `the search could not run: ${found.search_failed}`);
      continue;
    }
    if (!found.candidates.length) {
      const aimed = found.targeted
        ? `${found.targeted} of them aimed at what the target's calls depend on`
        : 'none aimed: no literal input or call of the tests reaches the target, only blind edits tried';
      drop(
        'no-candidate',
        `none of the ${found.pool} edits of the tests changes the answer (${aimed}; same ${found.same}, ` +
          `failed ${found.failed}, target not reached ${found.unreached}, no answer ${found.unanswered})`,
      );
      continue;
    }
    let first: { rule: VariantRule; detail: string } | undefined;
    let kept: LoadedInstance | undefined;
    for (const v of candidates.filter((c) => c.variant!.of === of)) {
      const problem = await variantProblem(v, outcomes, demo);
      if (!problem) {
        kept = v;
        break;
      }
      first ??= problem;
    }
    if (kept) valid.push({ ...kept, instance: { ...kept.instance, id } });
    else drop(first!.rule, first!.detail);
  }
  return { valid, dropped };
}

/** The complexity components a variant is scored on against its original (contracts/complexity.ts). */
const COMPONENTS = ['semantic', 'answer', 'navigation'] as const;

/**
 * Why a variant is easier than its original: the first component on which its complexity is lower
 * by more than COMPLEXITY_RESOLUTION (SWE-Flux's rule: a variant must not trade one dimension away
 * for gains elsewhere). Undefined when it is at least as complex on every component, or when
 * either oracle carries no complexity (harvested by an earlier tracer: nothing to compare).
 */
export function easierOn(mine?: Complexity, theirs?: Complexity): string | undefined {
  if (!mine || !theirs || mine.version !== theirs.version) return undefined;
  const lower = COMPONENTS.find(
    (c) => Math.round((theirs[c] - mine[c]) * 1e6) / 1e6 > COMPLEXITY_RESOLUTION,
  );
  return lower
    ? `less complex than its original on ${lower} (${mine[lower]} < ${theirs[lower]})`
    : undefined;
}

async function variantProblem(
  v: LoadedInstance,
  outcomes: ReadonlyMap<string, HarvestOutcome>,
  demo: ModelClient,
): Promise<{ rule: VariantRule; detail: string } | undefined> {
  const outcome = outcomes.get(v.instance.id);
  const original = outcomes.get(v.variant!.of);
  if (!outcome || outcome.status !== 'ok') {
    const reason = outcome?.reason ?? 'not harvested';
    return { rule: harvestRule(reason), detail: reason };
  }
  if (!original || original.status !== 'ok')
    return {
      rule: 'original-failed',
      detail: original?.reason ?? 'the original was not harvested',
    };
  const [mine, theirs] = [outcome.entry.oracle, original.entry.oracle];
  if (oracleDigest(mine) === oracleDigest(theirs))
    return { rule: 'same-oracle', detail: 'the changed input gives the original oracle' };
  if (passes(v.instance.kind, mine.oracle_answer, theirs.oracle_answer))
    return {
      rule: 'original-answer-passes',
      detail: "the original's answer passes the variant under the scorer",
    };
  const problem = answerProblem(mine.oracle_answer, shownText(v.instance, outcome.entry.context));
  if (problem) return problem;
  const easier = easierOn(mine.meta.complexity, theirs.meta.complexity);
  if (easier) return { rule: 'easier', detail: easier };
  if ((await answerInstance(v, outcome.entry, demo)).correct)
    return {
      rule: 'demo-model-right',
      detail: 'the demo model (a heuristic) answers it correctly',
    };
  return undefined;
}

/**
 * A drop's detail as results.json keeps it: a reason can carry what the code under test printed,
 * so a hostile test must not bloat the results with it.
 */
export const DROP_DETAIL_CHARS = 500;
const clipped = (detail: string): string =>
  detail.length > DROP_DETAIL_CHARS ? `${detail.slice(0, DROP_DETAIL_CHARS - 1)}…` : detail;

/** Drops in id order, in place (code units: the same in every locale), whole or merged from shards. */
export function sortedDrops<T extends { id: string }>(drops: T[]): T[] {
  return drops.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The summary results.json records: overall and per kind, and the instances that cannot vary. */
export function summarizeVariants(
  mode: VariantMode,
  epoch: number,
  selected: readonly LoadedInstance[],
  searches: readonly LoadedInstance[],
  screened: { valid: readonly LoadedInstance[]; dropped: readonly Dropped[] },
): VariantSummary {
  const summary: VariantSummary = {
    epoch,
    mode: mode.mode,
    tried: searches.length,
    valid: screened.valid.length,
    dropped: {},
    byKind: {},
    unvariable: {},
    drops: sortedDrops(screened.dropped.map((d) => ({ ...d, detail: clipped(d.detail) }))),
  };
  const kindOf = (kind: QuestionKind): KindVariants =>
    (summary.byKind[kind] ??= { tried: 0, valid: 0, dropped: {} });
  for (const s of searches) kindOf(s.instance.kind).tried++;
  for (const v of screened.valid) kindOf(v.instance.kind).valid++;
  for (const d of screened.dropped) {
    summary.dropped[d.rule] = (summary.dropped[d.rule] ?? 0) + 1;
    const k = kindOf(d.kind);
    k.dropped[d.rule] = (k.dropped[d.rule] ?? 0) + 1;
  }
  for (const l of selected) {
    const why = l.variant ? undefined : unvariable(l);
    if (why) summary.unvariable[why] = (summary.unvariable[why] ?? 0) + 1;
  }
  return summary;
}
