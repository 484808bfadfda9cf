import { exitCodeFor } from '../../src/doors/cli/flags.js';
import { compareRuns, type GatePolicy } from '../../src/stages/compare/gate.js';
import { ON_INCONCLUSIVE } from '../../src/contracts/comparison.js';
import { describeApiFailure } from '../../src/adapters/github/api-failure.js';
import { conclusionFor } from '../../src/adapters/github/conclusion.js';
import { baselineEventOf } from '../../src/adapters/history/event.js';
import { renderReport } from '../../src/stages/report/markdown.js';
import { recs, resultsOf } from '../helpers/records.js';

/**
 * Missing data is never a pass: a baseline that should exist but could not be
 * looked up is its own verdict, neutral or failing by policy, never success,
 * and the errors on the way say truthfully what failed.
 */
const policy: GatePolicy = {
  minDrop: 0.05,
  minGain: 0.05,
  alpha: 0.05,
  clusterBy: 'test',
  gate: 'overall',
  maxExcluded: 0.05,
  minItems: 10,
  minClusters: 5,
};

describe('baseline-unavailable', () => {
  const results = resultsOf(recs('S2_Loops', '1111111111', 'i'));
  const why = 'could not read the parents of abc1234: DNS lookup failed (getaddrinfo ENOTFOUND)';
  const c = compareRuns(results, undefined, policy, undefined, undefined, why);

  it('is its own verdict, naming what failed', () => {
    expect(c.verdict).toBe('baseline-unavailable');
    expect(c.unavailable).toBe(why);
    expect(c.summary).toBe(
      `Baseline unavailable: ${why}. Not a pass: this run's results are kept; re-run when the baseline can be read.`,
    );
    expect(compareRuns(results, undefined, policy).verdict).toBe('no-baseline');
  });

  it.each(ON_INCONCLUSIVE)('is never a pass (on-inconclusive %s)', (onInconclusive) => {
    expect(conclusionFor(c.verdict, onInconclusive)).not.toBe('success');
    expect(exitCodeFor(c.verdict, onInconclusive)).not.toBe(0);
  });

  it('is neutral by default (exit 3, infrastructure) and a failure when inconclusive runs fail', () => {
    expect([conclusionFor(c.verdict, 'neutral'), exitCodeFor(c.verdict, 'neutral')]).toEqual([
      'neutral',
      3,
    ]);
    expect([conclusionFor(c.verdict, 'fail'), exitCodeFor(c.verdict, 'fail')]).toEqual([
      'failure',
      1,
    ]);
  });

  it('heads the report', () => {
    const report = renderReport({ ...results, comparison: c }, c, {});
    expect(report).toContain('⚠️ **baseline unavailable** — Baseline unavailable: could not read');
  });
});

describe('what failed, said truthfully', () => {
  /** As Octokit reports a fetch that never got a reply: status 500, no response, the cause's message. */
  const network = (message: string, code: string) =>
    Object.assign(new Error(message), {
      status: 500,
      cause: Object.assign(new Error(message), { code }),
    });

  it.each([
    [
      network('getaddrinfo ENOTFOUND api.github.com', 'ENOTFOUND'),
      /^DNS lookup failed \(getaddrinfo ENOTFOUND api.github.com\)/,
    ],
    [network('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'), /^connection refused/],
    [network('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'), /^TLS failed/],
    [network('fetch failed', 'UND_ERR_CONNECT_TIMEOUT'), /^the request timed out/],
    [
      Object.assign(new Error('Server Error'), { status: 500, response: {} }),
      /^HTTP 500: Server Error$/,
    ],
    [
      Object.assign(new Error('Bad credentials'), { status: 401, response: {} }),
      /^HTTP 401: Bad credentials$/,
    ],
  ])('%s', (error, expected) => {
    const said = describeApiFailure(error);
    expect(said).toMatch(expected);
    if (!(error as { response?: unknown }).response) expect(said).not.toMatch(/HTTP 500/);
  });

  it("a push event carries the payload's previous head, not a new branch's zeros", () => {
    const at = (before: string) =>
      baselineEventOf({
        eventName: 'push',
        sha: 'b'.repeat(40),
        ref: 'refs/heads/main',
        payload: { before },
      });
    expect(at('a'.repeat(40))).toEqual({
      kind: 'push',
      sha: 'b'.repeat(40),
      branch: 'main',
      before: 'a'.repeat(40),
    });
    expect(at('0'.repeat(40))).toEqual({ kind: 'push', sha: 'b'.repeat(40), branch: 'main' });
  });
});
