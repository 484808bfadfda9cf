import type { OnInconclusive, Verdict } from '../../contracts/comparison.js';
import type { CheckConclusion } from './reporter.js';

/**
 * The check run's conclusion: success for pass, failure for fail, neutral
 * without a baseline (and for a failure the override label accepted); an inconclusive verdict is what `on-inconclusive` says
 * (neutral by default: neither blocks nor approves).
 */
export function conclusionFor(
  verdict: Verdict,
  onInconclusive: OnInconclusive,
  accepted = false,
): CheckConclusion {
  switch (verdict) {
    case 'pass':
      return 'success';
    case 'fail':
      // A failure the override label accepted neither blocks nor approves.
      return accepted ? 'neutral' : 'failure';
    case 'no-baseline':
      return 'neutral';
    case 'baseline-unavailable':
      // Missing data is never a pass: neutral, or a failure when inconclusive runs fail.
      return onInconclusive === 'fail' ? 'failure' : 'neutral';
    case 'inconclusive':
      return onInconclusive === 'pass'
        ? 'success'
        : onInconclusive === 'fail'
          ? 'failure'
          : 'neutral';
  }
}
