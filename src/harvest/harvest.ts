import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadedInstance } from '../instances/load.js';
import { canonicalJson } from '../util/hash.js';
import type { HarvestBackend, HarvestJob } from './backend.js';
import type { OracleCache } from './cache.js';
import { environmentDigest, oracleKey } from './key.js';
import {
  sliceSchema,
  tracerResultSchema,
  type CachedOracle,
  type HarvestOutcome,
  type TracerResult,
} from './oracle.js';

export interface HarvestOptions {
  cache: OracleCache;
  /** Created lazily: a run whose oracles are all cached never touches it. */
  backend: () => HarvestBackend;
  baseImage: string;
  tracerDigest: string;
  log: (message: string) => void;
  /** Where both answers of a nondeterministic instance are kept (`<dir>/<id>.json`). */
  quarantineDir?: string;
}

/** Every oracle is harvested this many times, in fresh containers, and must agree. */
export const HARVEST_RUNS = 2;

export interface HarvestSummary {
  outcomes: Map<string, HarvestOutcome>;
  cached: number;
  harvested: number;
  failed: number;
  /** Where misses were harvested: a backend name, or "cache" when nothing was missing. */
  backend: string;
}

/**
 * Gold answers for the selected instances: from the cache where the content
 * address matches, otherwise by running the tracer (one job per environment).
 * Harvest failures of single instances are outcomes, not exceptions; only an
 * unavailable backend throws.
 */
export async function harvestOracles(
  instances: LoadedInstance[],
  options: HarvestOptions,
): Promise<HarvestSummary> {
  const outcomes = new Map<string, HarvestOutcome>();
  const misses = new Map<
    string,
    { digest: string; items: { loaded: LoadedInstance; key: string }[] }
  >();
  for (const loaded of instances) {
    const digest = environmentDigest(loaded.environment, options.baseImage);
    const key = oracleKey(loaded.contentHash, digest, options.tracerDigest);
    const hit = options.cache.get(key);
    if (hit) {
      outcomes.set(loaded.instance.id, { status: 'ok', entry: hit, fromCache: true });
      continue;
    }
    const group = misses.get(digest) ?? { digest, items: [] };
    group.items.push({ loaded, key });
    misses.set(digest, group);
  }
  const cached = outcomes.size;
  let backendName = 'cache';
  if (misses.size) {
    const backend = options.backend();
    await backend.ensureAvailable();
    // Read after ensureAvailable: an `auto` backend decides there which one it is.
    backendName = backend.name;
    for (const group of misses.values()) {
      const items = group.items.map((i) => i.loaded);
      const runs: Map<string, TracerResult | string>[] = [];
      for (let run = 0; run < HARVEST_RUNS; run++) {
        runs.push(await runJob(backend, group.digest, items, options, run + 1));
      }
      for (const { loaded, key } of group.items) {
        const id = loaded.instance.id;
        const outcome = toOutcome(
          loaded,
          agreedResult(
            runs.map((r) => r.get(id)),
            (answers) => quarantine(options, id, answers),
          ),
          group.digest,
          options.tracerDigest,
          options.log,
        );
        if (outcome.status === 'ok') options.cache.put(key, outcome.entry);
        else options.log(`  ${loaded.instance.id}: ${outcome.status} — ${outcome.reason}`);
        outcomes.set(loaded.instance.id, outcome);
      }
    }
  }
  const failed = [...outcomes.values()].filter((o) => o.status !== 'ok').length;
  return {
    outcomes,
    cached,
    harvested: outcomes.size - cached - failed,
    failed,
    backend: backendName,
  };
}

async function runJob(
  backend: HarvestBackend,
  digest: string,
  items: LoadedInstance[],
  options: HarvestOptions,
  run: number,
): Promise<Map<string, TracerResult | string>> {
  const hostOutDir = mkdtempSync(join(tmpdir(), 'tracegate-harvest-'));
  // The container runs as an unprivileged user and must write here.
  chmodSync(hostOutDir, 0o777);
  const environment = items[0]!.environment;
  options.log(
    `Harvesting ${items.length} instance(s) in environment "${environment.name}" ` +
      `(${backend.name}, run ${run} of ${HARVEST_RUNS}: answers must agree)`,
  );
  const job: HarvestJob = {
    environment,
    envDigest: digest,
    instanceDirs: new Map(items.map((i) => [i.instance.id, i.dir])),
    hostOutDir,
    timeoutMs: (items.reduce((sum, i) => sum + i.instance.timeout_seconds, 0) + 120) * 1000,
    plan: ({ outDir, instanceDir }) => ({
      out_dir: outDir,
      instances: items.map(({ instance }) => ({
        id: instance.id,
        dir: instanceDir(instance.id),
        tests: instance.tests,
        kind: instance.kind,
        target: instance.target,
        query: instance.query,
        timeout_seconds: instance.timeout_seconds,
        parser: instance.parser ?? null,
      })),
    }),
  };
  try {
    await backend.run(job);
    const results = new Map<string, TracerResult | string>();
    for (const { instance } of items)
      results.set(instance.id, readResult(join(hostOutDir, instance.id, 'result.json')));
    return results;
  } finally {
    rmSync(hostOutDir, { recursive: true, force: true });
  }
}

/**
 * The result all runs agree on (same status and the same answer, compared as
 * canonical JSON), or a `nondeterministic` invalid result when they differ;
 * `keep` receives every run's result for inspection.
 */
export function agreedResult(
  results: (TracerResult | string | undefined)[],
  keep: (results: unknown[]) => void,
): TracerResult | string | undefined {
  const first = results[0];
  if (first === undefined || typeof first === 'string') return first;
  const fingerprint = (r: TracerResult | string | undefined) =>
    r === undefined || typeof r === 'string'
      ? `error: ${r ?? 'no result'}`
      : `${r.status}: ${canonicalJson(r.answer)}`;
  const prints = results.map(fingerprint);
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

function quarantine(options: HarvestOptions, id: string, results: unknown[]): void {
  if (!options.quarantineDir) return;
  mkdirSync(options.quarantineDir, { recursive: true });
  writeFileSync(
    join(options.quarantineDir, `${id}.json`),
    JSON.stringify({ id, runs: results }, null, 2) + '\n',
  );
  options.log(`  ${id}: quarantined, both answers in ${join(options.quarantineDir, `${id}.json`)}`);
}

function readResult(file: string): TracerResult | string {
  if (!existsSync(file)) return 'the tracer wrote no result for this instance';
  try {
    return tracerResultSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    return `unreadable tracer result (${(error as Error).message.split('\n')[0]})`;
  }
}

function toOutcome(
  loaded: LoadedInstance,
  result: TracerResult | string | undefined,
  envDigest: string,
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
  const entry: CachedOracle = {
    oracle: {
      question_kind: instance.kind,
      question,
      template_answer: template,
      oracle_answer: result.answer,
      meta: {
        instance_id: instance.id,
        instance_hash: loaded.contentHash,
        environment_digest: envDigest,
        python: result.python ?? 'unknown',
        tracer_version: `${result.tracer_version ?? 'unknown'}+${tracerDigest.slice(0, 12)}`,
        runs_agreed: result.runs_agreed ?? 1,
        harvested_at: new Date().toISOString(),
      },
    },
    context: {
      file: result.context.file,
      func: result.context.func,
      first_line: result.context.first_line,
      source: result.context.source,
      // Only what the prompt builder shows; a malformed slice is dropped, never the oracle.
      ...(slice.success ? { slice: slice.data } : {}),
    },
  };
  return { status: 'ok', entry, fromCache: false };
}
