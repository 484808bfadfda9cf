import type { ResolvedEnvironment } from '../contracts/environment.js';
import { sliceSchema, type CachedOracle, type HarvestOutcome } from '../contracts/oracle.js';
import type { ReadResult } from './results.js';
import type { LoadedInstance } from '../contracts/suite.js';

const MAX_TEST_SOURCES = 20;

/** A tracer result → the instance's harvest outcome (an oracle, or why there is none). */
export function toOutcome(
  loaded: LoadedInstance,
  result: ReadResult | undefined,
  env: ResolvedEnvironment,
  tracerDigest: string,
  log: (message: string) => void,
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
  const slice = sliceSchema.safeParse(result.context.slice);
  if (result.context.slice !== undefined && !slice.success) {
    log(
      `  ${instance.id}: prompt slice dropped (${slice.error.issues[0]?.message ?? 'malformed'})`,
    );
  }
  const tests = testSources(result.context.tests);
  const exitCode = result.stats?.pytest_exit_code;
  const entry: CachedOracle = {
    oracle: {
      question_kind: instance.kind,
      question,
      template_answer: template,
      oracle_answer: result.answer,
      meta: {
        instance_id: instance.id,
        instance_hash: loaded.contentHash,
        environment_digest: env.digest,
        python: result.python ?? 'unknown',
        tracer_version: `${result.tracer_version ?? 'unknown'}+${tracerDigest.slice(0, 12)}`,
        runs_agreed: result.runs_agreed ?? 1,
        harvested_at: new Date().toISOString(),
        pytest_exit_code: typeof exitCode === 'number' ? exitCode : null,
        environment: { source: describeSource(env), runtime: env.runtime.note },
        ...(result.measurement ? { measurement: result.measurement } : {}),
      },
    },
    context: {
      file: result.context.file,
      func: result.context.func,
      first_line: result.context.first_line,
      source: result.context.source,
      // Only what the prompt builder shows; a malformed slice is dropped, never the oracle.
      ...(slice.success ? { slice: slice.data } : {}),
      ...(tests ? { tests } : {}),
    },
  };
  return { status: 'ok', entry, fromCache: false };
}

function testSources(raw: unknown): { name: string; source: string }[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const tests = raw
    .filter(
      (t): t is { name: string; source: string } =>
        !!t && typeof t === 'object' && typeof t.name === 'string' && typeof t.source === 'string',
    )
    .slice(0, MAX_TEST_SOURCES)
    .map(({ name, source }) => ({ name, source }));
  return tests.length ? tests : undefined;
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
