// Fresh variants: instances whose test inputs the tracer perturbs (tracer/tracegate_tracer/variant.py),
// harvested like any instance and kept only if they pass the generator's screen with another oracle.
import { isWorldKind } from '../../contracts/kinds.js';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import { answerProblem, harvestRule } from '../screen/screen.js';
import { answerInstance } from '../query/answer.js';
import { sha256 } from '../../util/hash.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { ModelClient } from '../../contracts/model.js';
import { oracleDigest } from '../kinds/digest.js';

export type VariantMode = { mode: 'add'; count: number } | { mode: 'only' };

/** Why a variant was dropped: the generator's rules, or an oracle equal to the original's. */
export type VariantRule =
  | ReturnType<typeof harvestRule>
  | 'empty-answer'
  | 'too-large'
  | 'demo-model-right'
  | 'same-oracle'
  | 'original-failed';

/** What results.json records of the variants of a run. */
export interface VariantSummary {
  epoch: number;
  mode: 'add' | 'only';
  /** Variants harvested, kept, and dropped by rule. */
  tried: number;
  valid: number;
  dropped: Partial<Record<VariantRule, number>>;
}

/** A variant's id: the instance's, `@v` and the epoch (no instance id holds `@`: never a clash). */
export const variantId = (id: string, epoch: number): string => `${id}@v${epoch}`;

/** Attempts per variant, each by another perturbation strategy (tracer/tracegate_tracer/variant.py). */
export const VARIANT_ATTEMPTS = 4;

/**
 * The variants of a selection at `epoch`: of `count` instances (`add`; chosen
 * by a hash of the epoch and id) or of each (`only`). Instances that run in
 * a checkout or bring their own parser have none (their inputs are not the
 * instance's files, or their answer is not the rule's); nor do the
 * world-model kinds (a measured test is not perturbed).
 */
export function variantsOf(
  selected: readonly LoadedInstance[],
  mode: VariantMode,
  epoch: number,
): LoadedInstance[] {
  const eligible = selected.filter(
    (l) =>
      l.instance.cwd === 'instance' &&
      !l.instance.parser &&
      !l.variant &&
      !isWorldKind(l.instance.kind),
  );
  const chosen =
    mode.mode === 'only'
      ? eligible
      : [...eligible]
          .map((l) => ({ l, rank: sha256(String(epoch), 'variant', l.instance.id) }))
          .sort((a, b) => (a.rank < b.rank ? -1 : 1))
          .slice(0, mode.count)
          .map(({ l }) => l);
  // Every attempt is harvested (they share nothing but the original's files); the first valid is kept.
  return chosen.flatMap((l) =>
    Array.from({ length: VARIANT_ATTEMPTS }, (_, attempt) => ({
      ...l,
      instance: { ...l.instance, id: `${variantId(l.instance.id, epoch)}#${attempt}` },
      contentHash: sha256(l.contentHash, 'variant', String(epoch), String(attempt)),
      variant: { epoch, of: l.instance.id, attempt },
    })),
  );
}

/**
 * Keeps a variant only if it passes the generator's screen (harvested, an
 * answer that says something and fits, not what the demo model answers) and
 * its oracle differs from the original's: a variant that asks the same thing
 * with the same answer is no fresh item.
 */
export async function screenVariants(
  attempts: readonly LoadedInstance[],
  outcomes: ReadonlyMap<string, HarvestOutcome>,
  demo: ModelClient,
): Promise<{
  valid: LoadedInstance[];
  dropped: { id: string; rule: VariantRule; detail: string }[];
}> {
  const valid: LoadedInstance[] = [];
  const dropped: { id: string; rule: VariantRule; detail: string }[] = [];
  const byOriginal = new Map<string, LoadedInstance[]>();
  for (const a of attempts)
    byOriginal.set(a.variant!.of, [...(byOriginal.get(a.variant!.of) ?? []), a]);
  for (const [of, tries] of byOriginal) {
    // The attempts in order; the first that passes is the variant, else the first attempt's rule.
    let first: { rule: VariantRule; detail: string } | undefined;
    let kept: LoadedInstance | undefined;
    for (const v of [...tries].sort((a, b) => a.variant!.attempt - b.variant!.attempt)) {
      const problem = await variantProblem(v, outcomes, demo);
      if (!problem) {
        kept = v;
        break;
      }
      first ??= problem;
    }
    const id = variantId(of, tries[0]!.variant!.epoch);
    if (kept) valid.push({ ...kept, instance: { ...kept.instance, id } });
    else dropped.push({ id, ...first! });
  }
  return { valid, dropped };
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
    return {
      rule: reason.startsWith('no variant') ? 'no-answer' : harvestRule(reason),
      detail: reason,
    };
  }
  if (!original || original.status !== 'ok')
    return {
      rule: 'original-failed',
      detail: original?.reason ?? 'the original was not harvested',
    };
  if (oracleDigest(outcome.entry.oracle) === oracleDigest(original.entry.oracle))
    return { rule: 'same-oracle', detail: 'the perturbed inputs give the original oracle' };
  const problem = answerProblem(outcome.entry.oracle.oracle_answer);
  if (problem) return problem;
  if ((await answerInstance(v, outcome.entry, demo)).correct)
    return {
      rule: 'demo-model-right',
      detail: 'the demo model (a heuristic) answers it correctly',
    };
  return undefined;
}

/** The summary results.json records. */
export function summarizeVariants(
  mode: VariantMode,
  epoch: number,
  tried: number,
  screened: { valid: readonly unknown[]; dropped: readonly { rule: VariantRule }[] },
): VariantSummary {
  const dropped: Partial<Record<VariantRule, number>> = {};
  for (const d of screened.dropped) dropped[d.rule] = (dropped[d.rule] ?? 0) + 1;
  return { epoch, mode: mode.mode, tried, valid: screened.valid.length, dropped };
}
