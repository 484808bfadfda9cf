import {
  tracerResultSchema,
  type PlanSpec,
  type TracerResult as TracerLine,
} from '../../contracts/tracer-protocol.js';
import { canonicalJson } from '../../util/hash.js';
import type { QuestionKind } from '../../contracts/kinds.js';
import type { MeasuredRun } from '../../families/family.js';
import { familyOf } from '../../families/registry.js';

/** A tracer result as the host keeps it: the line, and what the host adds (never the tracer). */
export type TracerResult = TracerLine & {
  /** How many independent runs gave this same result. */
  runs_agreed?: number;
  /** World-model kinds: every run's answer beside the measurement's provenance. */
  measurement?: { harvests?: unknown[]; near_top?: unknown; band?: unknown };
};

/** A result the host could not accept, as the reason that instance failed. */
export type ReadResult = TracerResult | string;

/**
 * The tracer's stdout → one result per spec. Each line is one JSON object
 * `{"tracegate_result": 1, …}`; a result counts only when it names a spec of
 * this job and echoes that spec's instance hash and environment digest.
 * Anything else is an error of that instance alone (or ignored, if it names
 * none), never trusted.
 */
export function readResultLines(
  stdout: string,
  specs: readonly Pick<PlanSpec, 'id' | 'instance_hash' | 'env_digest'>[],
): Map<string, ReadResult> {
  const wanted = new Map(specs.map((s) => [s.id, s]));
  const results = new Map<string, ReadResult>();
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    if (
      !raw ||
      typeof raw !== 'object' ||
      (raw as { tracegate_result?: unknown }).tracegate_result !== 1
    )
      continue;
    const id = (raw as { id?: unknown }).id;
    const spec = typeof id === 'string' ? wanted.get(id) : undefined;
    if (!spec) continue;
    if (results.has(spec.id)) {
      results.set(spec.id, 'the tracer returned two results for this instance');
      continue;
    }
    const parsed = tracerResultSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : '(the line)';
      results.set(spec.id, `unreadable tracer result (${where}: ${issue?.message ?? 'malformed'})`);
    } else if (
      parsed.data.instance_hash !== spec.instance_hash ||
      parsed.data.env_digest !== spec.env_digest
    ) {
      results.set(
        spec.id,
        'the tracer result does not belong to this instance (hash or environment differs)',
      );
      // The line as the tracer wrote it (validated above; the schema has no defaults or
      // transforms): its keys keep the tracer's order, so the stored oracle's bytes do not
      // depend on the order the schema declares them in.
    } else results.set(spec.id, raw as TracerResult);
  }
  for (const spec of specs)
    if (!results.has(spec.id)) results.set(spec.id, 'the tracer wrote no result for this instance');
  return results;
}

/**
 * The result all runs agree on (same status and the same answer, compared as
 * canonical JSON), or a `nondeterministic` invalid result when they differ;
 * `keep` receives every run's result for inspection. Measured numbers (W2,
 * W3) are never byte-stable: they agree within the band the tracer recorded;
 * profiles (W4) agree when every ranked list has the same top entry. The
 * first run's answer is kept, every run's in `measurement.harvests`.
 */
export function agreedResult(
  results: (ReadResult | undefined)[],
  keep: (results: unknown[]) => void,
  kind?: string,
): ReadResult | undefined {
  const first = results[0];
  if (first === undefined || typeof first === 'string') return first;
  const fingerprint = (r: ReadResult | undefined) =>
    r === undefined || typeof r === 'string'
      ? `error: ${r ?? 'no result'}`
      : `${r.status}: ${canonicalJson(r.answer)}`;
  const prints = results.map(fingerprint);
  const oks = results.filter((r): r is TracerResult => typeof r === 'object' && r.status === 'ok');
  const agree = kind !== undefined ? familyOf(kind).agreedAnswer : undefined;
  const runs: MeasuredRun[] = oks.map((r) => ({
    answer: r.answer,
    band: r.measurement?.band as MeasuredRun['band'],
    nearTop: r.measurement?.near_top as MeasuredRun['nearTop'],
  }));
  const agreed =
    agree && oks.length === results.length && oks.length > 1
      ? agree(kind as QuestionKind, runs)
      : undefined;
  if (agreed) {
    const harvests = oks.map((r) => r.answer);
    return {
      ...first,
      answer: agreed.answer,
      runs_agreed: results.length,
      measurement: { ...first.measurement, harvests },
    } as TracerResult;
  }
  if (prints.every((p) => p === prints[0])) {
    return { ...first, runs_agreed: results.length } as TracerResult;
  }
  keep(results);
  const shown = prints.map((p, i) => `run ${i + 1} ${p.length > 200 ? p.slice(0, 199) + '…' : p}`);
  return {
    ...first,
    status: 'invalid',
    answer: undefined,
    reason: `nondeterministic: ${shown.join(' | ')}`,
  };
}
