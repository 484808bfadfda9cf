import type { ResolvedEnvironment } from '../../contracts/environment.js';
import {
  cachedOracleSchema,
  type CachedOracle,
  type HarvestOutcome,
} from '../../contracts/oracle.js';
import { describeUnanswerable, shownText, unanswerable } from '../kinds/answerable.js';
import type { ReadResult } from './results.js';
import type { LoadedInstance } from '../../contracts/suite.js';

const MAX_TEST_SOURCES = 20;

/**
 * A tracer result → the instance's harvest outcome (an oracle, or why there
 * is none). The oracle is the entry exactly as the cache reads it back (see
 * `asStored`), so a fresh harvest and a cached one give the same value.
 */
export function toOutcome(
  loaded: LoadedInstance,
  result: ReadResult | undefined,
  env: ResolvedEnvironment,
  tracerDigest: string,
): HarvestOutcome {
  if (result === undefined || typeof result === 'string') {
    return { status: 'error', reason: result ?? 'no result' };
  }
  if (result.status !== 'ok' || result.answer === undefined || !result.context) {
    return {
      status: result.status === 'ok' ? 'error' : result.status,
      reason: result.reason ?? 'the tracer returned no answer',
    };
  }
  const { instance } = loaded;
  // Hand-written only with a custom parser; otherwise generated from the query by the tracer.
  const question = instance.question ?? result.question;
  const template = instance.template_answer ?? result.template_answer;
  if (!question || !template) {
    return { status: 'error', reason: 'the tracer generated no question text or answer template' };
  }
  // An answer that holds the harvest machine's paths or names no question defines measures luck:
  // refused by name with its rule, for every suite (docs/benchmark-validity.md).
  const machine = unanswerable(result.answer, shownText(instance, result.context));
  if (machine) return { status: 'invalid', reason: describeUnanswerable(machine) };
  // The result's context is the cache's context schema already (contracts/tracer-protocol.ts).
  const { tests, ...context } = result.context;
  return asStored({
    oracle: {
      question_kind: instance.kind,
      question,
      template_answer: template,
      oracle_answer: result.answer,
      meta: {
        instance_id: instance.id,
        instance_hash: loaded.contentHash,
        environment_digest: env.digest,
        python: result.python,
        tracer_version: `${result.tracer_version}+${tracerDigest.slice(0, 12)}`,
        runs_agreed: result.runs_agreed ?? 1,
        harvested_at: new Date().toISOString(),
        pytest_exit_code: result.stats.pytest_exit_code,
        environment: { source: describeSource(env), runtime: env.runtime.note },
        ...(result.measurement ? { measurement: result.measurement } : {}),
        ...(result.verification ? { verification: result.verification } : {}),
        ...(result.complexity ? { complexity: result.complexity } : {}),
      },
    },
    context: { ...context, ...(tests?.length ? { tests: tests.slice(0, MAX_TEST_SOURCES) } : {}) },
  });
}

/**
 * The entry as the oracle cache will read it back: its JSON text, parsed by
 * the cache's own schema. A fresh oracle is then the same value as a cached
 * one (`-0` is `0`, no key holds `undefined`), and an entry the cache would
 * refuse is refused here, before it is stored or scored.
 */
function asStored(entry: CachedOracle): HarvestOutcome {
  const read = cachedOracleSchema.safeParse(JSON.parse(JSON.stringify(entry)));
  if (read.success) return { status: 'ok', entry: read.data, fromCache: false };
  const issue = read.error.issues[0];
  return {
    status: 'error',
    reason: `the oracle would not read back from the cache (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'malformed'})`,
  };
}

export function describeSource(env: ResolvedEnvironment): string {
  const s = env.source;
  if (s.kind === 'image') return `image ${s.ref} (${s.imageId.slice(0, 19)})`;
  if (s.kind === 'git')
    return `git ${s.repo} @ ${s.commit.slice(0, 12)} + ${s.wheels.length} wheel(s)`;
  return `packages: ${s.wheels.length} wheel(s)`;
}

/** A cache entry is trusted only if it says it is the oracle of this instance in this environment. */
export function entryBelongs(
  entry: CachedOracle,
  loaded: LoadedInstance,
  envDigest: string,
): boolean {
  const meta = entry.oracle.meta;
  return (
    meta.instance_id === loaded.instance.id &&
    meta.instance_hash === loaded.contentHash &&
    meta.environment_digest === envDigest &&
    entry.oracle.question_kind === loaded.instance.kind
  );
}
