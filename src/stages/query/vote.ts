import { canonicalJson } from '../../util/hash.js';

/** One sample's outcome: a valid answer, or the class of why it is not one. */
export type SampleOutcome =
  { ok: true; value: unknown; correct: boolean } | { ok: false; failure: string };

export interface Vote {
  /** Index of the sample whose answer won (the first sample giving it). */
  winner: number;
  ok: boolean;
  /** Samples whose answer is correct. */
  correctSamples: number;
}

/**
 * Majority vote over k samples. Valid answers vote by their canonical JSON;
 * the most frequent wins; a tie goes to the answer whose canonical JSON sorts
 * first (independent of arrival order, so re-runs agree). With no valid
 * answer, the most frequent failure class stands for the instance (ties: the
 * class that sorts first), so the record still says what went wrong.
 */
export function majorityVote(samples: readonly SampleOutcome[]): Vote {
  const correctSamples = samples.filter((s) => s.ok && s.correct).length;
  const tally = new Map<string, { count: number; first: number }>();
  samples.forEach((s, i) => {
    const key = s.ok ? `ok:${canonicalJson(s.value)}` : `fail:${s.failure}`;
    const entry = tally.get(key) ?? { count: 0, first: i };
    entry.count++;
    tally.set(key, entry);
  });
  const ranked = [...tally.entries()].sort(
    ([ka, a], [kb, b]) =>
      // any valid answer beats any failure, then count, then the key's order
      Number(kb.startsWith('ok:')) - Number(ka.startsWith('ok:')) ||
      b.count - a.count ||
      (ka < kb ? -1 : ka > kb ? 1 : 0),
  );
  const [key, best] = ranked[0] ?? ['fail:empty', { count: 0, first: 0 }];
  return { winner: best.first, ok: key.startsWith('ok:'), correctSamples };
}
