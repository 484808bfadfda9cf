/**
 * Comet's kinds scored on what the reply did when it ran (contracts/comet.ts;
 * tracer/tracegate_tracer/comet/verify.py runs it). Pure: a reply and its
 * verification in, a verdict and its parts out. Replies are text from
 * outside: whatever shape they have, the answer is a verdict with a reason,
 * never a throw.
 *
 * - B1 passes when the input exposes the bug (the two versions behave
 *   differently: outcome, return repr, standard output or exception class)
 *   and the predicted outcome is what the buggy version did (ok: return and
 *   standard output exact; crash: the exception class, a bare name naming its
 *   dotted class; timeout: a bound hit, time or memory).
 * - B2 passes when its test fails on the buggy version (a bound hit once a
 *   test runs is a failure), passes on the correct one, and gives the same
 *   verdicts on their respellings, calling the function under test in every
 *   one of those runs (each ran in a container of its own: docs/comet.md).
 */
import type { CometRecord, CometReply, Verification } from '../../contracts/comet.js';
import type { CometKind } from '../../contracts/kinds.js';
import { sameException } from '../world/score.js';

/** Largest test file a B2 reply may send to be run (the tracer refuses longer ones too). */
export const MAX_TEST_CHARS = 262_144;
/** Largest B1 input, as JSON text. */
export const MAX_INPUT_CHARS = 65_536;

export interface CometVerdict {
  correct: boolean;
  record: CometRecord;
}

type Reply = Record<string, unknown>;

const asReply = (value: unknown): Reply =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Reply) : {};

/** What of a parsed reply is run, or why nothing can be (a reply with no test, one too large). */
export function replyToRun(
  kind: CometKind,
  parsed: unknown,
): { reply: CometReply } | { refused: string } {
  const reply = asReply(parsed);
  if (kind === 'B1_BuggyIO') {
    const input = reply.input;
    if (input === undefined || input === null) return { refused: 'the reply gives no input' };
    const text = JSON.stringify(input);
    if (text.length > MAX_INPUT_CHARS)
      return { refused: `the input is over ${MAX_INPUT_CHARS} characters (${text.length})` };
    return { reply: { input } };
  }
  const test = reply.test;
  if (typeof test !== 'string' || !test.trim()) return { refused: 'the reply gives no test file' };
  if (test.length > MAX_TEST_CHARS)
    return { refused: `the test file is over ${MAX_TEST_CHARS} characters (${test.length})` };
  return { reply: { test } };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The verdict on a reply from its verification (refused: the reply could not run at all). */
export function cometVerdict(
  kind: CometKind,
  parsed: unknown,
  verification: Verification,
): CometVerdict {
  const reply = asReply(parsed);
  if (kind === 'B2_RegressionTest') {
    const record: CometRecord = {
      text: {
        precondition: text(reply.precondition).slice(0, 2000),
        postcondition: text(reply.postcondition).slice(0, 2000),
        explanation: text(reply.explanation).slice(0, 2000),
      },
    };
    if (verification.kind !== 'B2_RegressionTest' || verification.refused || !verification.runs)
      return {
        correct: false,
        record: { ...record, reason: `refused: ${verification.refused ?? 'no runs'}` },
      };
    const runs = verification.runs;
    const verdicts = Object.fromEntries(
      Object.entries(runs).flatMap(([name, run]) => (run ? [[name, run.verdict]] : [])),
    );
    const failing = (v: string | undefined) => v === 'fail';
    let reason: string | undefined;
    if (runs.buggy.verdict === 'error' || runs.correct.verdict === 'error')
      reason = `the test does not run: ${runs.buggy.reason ?? runs.correct.reason ?? 'error'}`;
    else if (runs.buggy.verdict === 'pass' && runs.correct.verdict === 'pass')
      reason = 'passes on both versions';
    else if (failing(runs.buggy.verdict) && failing(runs.correct.verdict))
      reason = 'fails on both versions';
    else if (runs.buggy.verdict === 'pass') reason = 'passes on the buggy version';
    else if (!failing(runs.buggy_respelled?.verdict) || runs.correct_respelled?.verdict !== 'pass')
      reason =
        'reads the code, not its behaviour: other verdicts on the respelled versions ' +
        `(${runs.buggy_respelled?.verdict ?? '-'}, ${runs.correct_respelled?.verdict ?? '-'})`;
    else if (Object.values(runs).some((run) => run && !run.called))
      reason =
        'does not call the function: a run counts only when its test calls it (' +
        Object.entries(runs)
          .flatMap(([name, run]) => (run && !run.called ? [name] : []))
          .join(', ') +
        ')';
    return {
      correct: reason === undefined,
      record: { ...record, verdicts, ...(reason ? { reason } : {}) },
    };
  }
  if (verification.kind !== 'B1_BuggyIO' || verification.refused || !verification.runs)
    return {
      correct: false,
      record: {
        exposed: false,
        outcomeMatched: false,
        reason: `refused: ${verification.refused ?? 'no runs'}`,
      },
    };
  const { buggy, correct } = verification.runs;
  const exposed =
    buggy.outcome !== correct.outcome ||
    (buggy.return ?? null) !== (correct.return ?? null) ||
    (buggy.stdout ?? null) !== (correct.stdout ?? null) ||
    (buggy.exception ?? null) !== (correct.exception ?? null);
  const predicted = text(reply.outcome).trim().toLowerCase();
  let outcomeMatched = predicted === buggy.outcome;
  if (outcomeMatched && buggy.outcome === 'ok')
    outcomeMatched =
      text(reply.return) === (buggy.return ?? '') && text(reply.stdout) === (buggy.stdout ?? '');
  if (outcomeMatched && buggy.outcome === 'crash')
    outcomeMatched = sameException(buggy.exception ?? null, reply.exception);
  const reason = !exposed
    ? 'no exposure: both versions behave the same on the input'
    : !outcomeMatched
      ? `the buggy version's outcome is ${describe(buggy)}`
      : undefined;
  return {
    correct: exposed && outcomeMatched,
    record: { exposed, outcomeMatched, ...(reason ? { reason } : {}) },
  };
}

function describe(run: { outcome: string; return?: string; exception?: string }): string {
  if (run.outcome === 'ok') return `ok (returns ${(run.return ?? '').slice(0, 80)})`;
  if (run.outcome === 'crash') return `crash (${run.exception ?? '?'})`;
  return run.outcome;
}

/** A B1/B2 record's reason, reduced to its class for counting (`refused: …` → `refused`). */
function reasonClass(reason: string | undefined): string {
  if (!reason) return 'passed';
  if (reason.startsWith('refused')) return 'refused';
  if (reason.startsWith('no exposure')) return 'no exposure';
  if (reason.startsWith("the buggy version's outcome")) return 'wrong outcome';
  if (reason.startsWith('the test does not run')) return 'does not run';
  if (reason.startsWith('reads the code')) return 'reads the code';
  if (reason.startsWith('does not call')) return 'does not call';
  return reason;
}

export interface CometSummary {
  /** Replies run (records with a verification's parts). */
  n: number;
  passed: number;
  /** B1: inputs on which the versions behaved differently, and predicted outcomes that were right. */
  exposed?: number;
  exposureRate?: number;
  outcomeMatched?: number;
  outcomeAccuracy?: number;
  /** Why replies did not pass, by class (`no exposure`, `passes on both versions`, `refused`, …). */
  reasons: Record<string, number>;
}

/** Per Comet kind: the sub-scores beside the pass rate (exposure and outcome accuracy for B1; B2's reasons). */
export function summarizeComet(
  records: readonly { kind: string; comet?: CometRecord; correct: boolean }[],
): Record<string, CometSummary> | undefined {
  const out: Record<string, CometSummary> = {};
  for (const r of records) {
    if (!r.comet || (r.kind !== 'B1_BuggyIO' && r.kind !== 'B2_RegressionTest')) continue;
    const s = (out[r.kind] ??= { n: 0, passed: 0, reasons: {} });
    s.n++;
    if (r.correct) s.passed++;
    const why = reasonClass(r.comet.reason);
    if (why !== 'passed') s.reasons[why] = (s.reasons[why] ?? 0) + 1;
    if (r.kind === 'B1_BuggyIO') {
      s.exposed = (s.exposed ?? 0) + (r.comet.exposed ? 1 : 0);
      s.outcomeMatched = (s.outcomeMatched ?? 0) + (r.comet.outcomeMatched ? 1 : 0);
    }
  }
  for (const s of Object.values(out))
    if (s.exposed !== undefined) {
      s.exposureRate = Math.round((s.exposed / s.n) * 10_000) / 10_000;
      s.outcomeAccuracy = Math.round(((s.outcomeMatched ?? 0) / s.n) * 10_000) / 10_000;
    }
  return Object.keys(out).length ? out : undefined;
}
