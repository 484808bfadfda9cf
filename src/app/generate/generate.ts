import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Environment } from '../../contracts/environment.js';
import type { HarvestOutcome } from '../../contracts/oracle.js';
import { scoutResultSchema, type Candidate, type ScoutResult } from '../../contracts/scout.js';
import { UsageError } from '../../errors.js';
import type { HarvestBackend, HarvestJob, ScoutSpec } from '../../contracts/harvest-backend.js';
import { harvestOracles, resolveEnvironment } from '../../stages/harvest/harvest.js';
import { HeuristicClient } from '../../adapters/heuristic-model/client.js';
import { answerInstance } from '../../stages/query/answer.js';
import { chooseTargets, draft, type Drafted } from '../../stages/screen/candidates.js';
import {
  screen,
  SCREEN_RULES,
  type Rejection,
  type ScreenRule,
} from '../../stages/screen/screen.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import { contentHash } from '../../adapters/suite/files.js';
import type { HarvestDeps } from '../../stages/harvest/types.js';
import { searchesOf, unvariable, variantOf } from '../../stages/variants/variants.js';
import { findVariants, type HarvestBatch } from '../variants.js';
import { testFiles, writeIfChanged, writeSuiteDir } from './write.js';

/** What `tracegate generate` is asked. */
export interface GenerateRequest {
  /** The suite root written into (its environments/ folder gets the recipe). */
  out: string;
  /** The folder under `out` (and the id prefix) of this package's instances. */
  suite: string;
  recipe: Environment;
  /** The recipe's bytes, written as OUT/environments/<name>.json. */
  recipeBytes: Buffer;
  /** Directory of self-contained test files (test_*.py). */
  tests: string;
  /** Import names whose code is scouted (targets are only ever theirs). */
  packages: string[];
  seed: number;
  /** Functions of each test file asked about. */
  targetsPerFile: number;
  /** Instances kept at most (round robin over kinds). */
  maxInstances?: number;
  timeoutSeconds: number;
  /** The report file (default OUT/SUITE/generate-report.json). */
  report?: string;
  /**
   * The epoch of the variant screen: an instance is kept only if a run at this
   * epoch finds it a fresh variant (docs/generate.md); undefined: no screen.
   */
  variantScreen?: number;
}

export interface GenerateDeps {
  harvest: Pick<
    HarvestDeps,
    'backend' | 'sources' | 'oracles' | 'quarantine' | 'failures' | 'retryFailed'
  >;
  tracerDigest: string;
  log: (message: string) => void;
  warn: (message: string) => void;
  signal?: AbortSignal;
}

/** The generator's report (written as OUT/SUITE/generate-report.json). */
export interface GenerateReport {
  schema: 'tracegate/generate-report@1';
  suite: string;
  environment: string;
  packages: string[];
  seed: number;
  /** The variant screen's epoch, when screened. */
  variantScreen?: number;
  files: {
    test: string;
    status: string;
    reason?: string;
    functions: number;
    candidates: number;
    targets: string[];
  }[];
  candidates: number;
  accepted: number;
  byKind: Record<string, number>;
  rejectedByRule: Partial<Record<ScreenRule, number>>;
  rejected: Rejection[];
}

const SCOUT_TIMEOUT_SECONDS = 300;
/** True for an instance file of a world-model kind (never written or removed by generate). */
async function scout(
  backend: HarvestBackend,
  env: Awaited<ReturnType<typeof resolveEnvironment>>,
  dirs: { id: string; dir: string; test: string }[],
  packages: string[],
): Promise<Map<string, ScoutResult | string>> {
  let specs: ScoutSpec[] = [];
  const job: HarvestJob = {
    environment: env,
    instanceDirs: dirs.map((d) => d.dir),
    timeoutMs: (dirs.length * SCOUT_TIMEOUT_SECONDS + 120) * 1000,
    label: 'scout',
    plan: ({ instanceDir, workDir, isolation }) => {
      specs = dirs.map((d, i) => ({
        id: d.id,
        scout: { packages },
        dir: instanceDir(i),
        tests: [d.test],
        timeout_seconds: SCOUT_TIMEOUT_SECONDS,
      }));
      return { work_dir: workDir, isolation, instances: specs };
    },
  };
  const stdout = await backend.run(job);
  const results = new Map<string, ScoutResult | string>();
  for (const line of stdout.split('\n')) {
    if (!line.includes('"scout"')) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = scoutResultSchema.safeParse(raw);
    if (!parsed.success) continue;
    if (specs.some((s) => s.id === parsed.data.id)) results.set(parsed.data.id, parsed.data);
  }
  for (const spec of specs)
    if (!results.has(spec.id)) results.set(spec.id, 'the tracer wrote no scout result');
  return results;
}

/**
 * `tracegate generate`: scout what each test file runs of the packages,
 * propose every kind and mode on the richest targets, harvest the
 * candidates (twice, in the environment, like any instance), screen them,
 * and write the kept ones as instance files beside a copy of their test
 * file. Deterministic given the seed: the same inputs write the same bytes.
 */
export async function generate(
  request: GenerateRequest,
  deps: GenerateDeps,
): Promise<GenerateReport> {
  const { out, suite, recipe } = request;
  if (recipe.packages.some((p) => p.endsWith('.whl')))
    throw new UsageError(
      `environment "${recipe.name}" names wheel files by path: generate copies recipes into ${out}/environments/, ` +
        'where those paths would not resolve; pin the packages by version.',
    );
  const envFile = join(out, 'environments', `${recipe.name}.json`);
  mkdirSync(join(out, 'environments'), { recursive: true });
  if (existsSync(envFile) && !readFileSync(envFile).equals(request.recipeBytes))
    throw new UsageError(
      `${envFile} exists with other content: give the environment another name, or update that file first.`,
    );
  writeIfChanged(envFile, request.recipeBytes);
  const files = testFiles(request.tests);
  const suiteDir = join(out, suite);
  const dirs = files.map((test) => {
    const dir = join(suiteDir, basename(test, '.py'));
    mkdirSync(dir, { recursive: true });
    writeIfChanged(join(dir, test), readFileSync(join(request.tests, test)));
    return {
      id: `scout-${basename(test, '.py')}`,
      dir: realpathSync(dir),
      rel: `${suite}/${basename(test, '.py')}`,
      test,
    };
  });
  const backend = deps.harvest.backend();
  await backend.ensureAvailable();
  const env = await resolveEnvironment(recipe, 'environments', deps.harvest.sources, backend);
  deps.log(
    `Scouting ${files.length} test file(s) in environment "${recipe.name}" (${env.runtime.note})`,
  );
  const scouted = await scout(backend, env, dirs, request.packages);
  const report: GenerateReport = {
    schema: 'tracegate/generate-report@1',
    suite,
    environment: recipe.name,
    packages: request.packages,
    seed: request.seed,
    ...(request.variantScreen !== undefined ? { variantScreen: request.variantScreen } : {}),
    files: [],
    candidates: 0,
    accepted: 0,
    byKind: {},
    rejectedByRule: {},
    rejected: [],
  };
  const drafted: Drafted[] = [];
  const loaded: LoadedInstance[] = [];
  const ids = new Set<string>();
  for (const d of dirs) {
    const result = scouted.get(d.id)!;
    if (typeof result === 'string' || result.status !== 'ok') {
      const reason = typeof result === 'string' ? result : (result.reason ?? result.status);
      deps.warn(`Scouting ${d.test}: ${reason}`);
      report.files.push({
        test: d.test,
        status: typeof result === 'string' ? 'error' : result.status,
        reason,
        functions: 0,
        candidates: 0,
        targets: [],
      });
      continue;
    }
    const functions = result.facts?.functions ?? [];
    const candidates: Candidate[] = result.candidates ?? [];
    const targets = chooseTargets(functions, candidates, request.targetsPerFile, request.seed);
    const chosen = new Set(targets);
    const testBytes = readFileSync(join(d.dir, d.test));
    let count = 0;
    for (const candidate of candidates) {
      if (!chosen.has(`${candidate.target.file}::${candidate.target.function}`)) continue;
      const one = draft(candidate, suite, recipe.name, request.timeoutSeconds);
      if (ids.has(one.instance.id)) continue;
      ids.add(one.instance.id);
      drafted.push(one);
      count++;
      loaded.push({
        instance: one.instance,
        dir: d.dir,
        file: `${d.rel}/${one.fileName}`,
        contentHash: contentHash([
          [d.test, testBytes],
          [one.fileName, one.bytes],
        ]),
        environment: recipe,
        environmentDir: 'environments',
      });
    }
    report.files.push({
      test: d.test,
      status: 'ok',
      functions: functions.length,
      candidates: count,
      targets,
    });
    deps.log(
      `  ${d.test}: ${functions.length} function(s) ran; ${targets.length} target(s), ${count} candidate(s)`,
    );
  }
  report.candidates = drafted.length;
  if (!drafted.length)
    throw new UsageError(
      `No candidates: no test file of ${request.tests} could be scouted (each file's reason is above).`,
    );
  const harvestDeps = {
    ...deps.harvest,
    log: deps.log,
    warn: deps.warn,
    signal: deps.signal,
  };
  const harvest = await harvestOracles(loaded, deps.tracerDigest, harvestDeps);
  const demoRight = await demoModelRight(loaded, harvest.outcomes);
  const options = { seed: request.seed, maxTotal: request.maxInstances };
  const screened =
    request.variantScreen === undefined
      ? screen(drafted, harvest.outcomes, demoRight, options)
      : await variantScreen(drafted, loaded, harvest.outcomes, demoRight, options, {
          epoch: request.variantScreen,
          harvest: async (batch) =>
            (await harvestOracles(batch, deps.tracerDigest, harvestDeps)).outcomes,
          log: deps.log,
        });
  // Write the kept instances; remove what an earlier generation left that is no longer kept.
  const keep = new Map<string, Drafted[]>();
  for (const s of screened.accepted) {
    const dir = loaded.find((l) => l.instance.id === s.drafted.instance.id)!.dir;
    keep.set(dir, [...(keep.get(dir) ?? []), s.drafted]);
  }
  for (const d of dirs) writeSuiteDir(d.dir, keep.get(d.dir) ?? []);
  report.accepted = screened.accepted.length;
  for (const s of screened.accepted)
    report.byKind[s.drafted.instance.kind] = (report.byKind[s.drafted.instance.kind] ?? 0) + 1;
  report.byKind = Object.fromEntries(Object.entries(report.byKind).sort());
  for (const rule of SCREEN_RULES) {
    const n = screened.rejected.filter((r) => r.rule === rule).length;
    if (n) report.rejectedByRule[rule] = n;
  }
  report.rejected = screened.rejected.sort((a, b) => (a.id < b.id ? -1 : 1));
  const reportFile = request.report ?? join(suiteDir, 'generate-report.json');
  mkdirSync(dirname(reportFile), { recursive: true });
  writeIfChanged(reportFile, Buffer.from(`${JSON.stringify(report, null, 2)}\n`));
  deps.log(
    `Kept ${report.accepted} of ${report.candidates} candidate(s) in ${suiteDir}; rejected: ` +
      (Object.entries(report.rejectedByRule)
        .map(([rule, n]) => `${rule} ×${n}`)
        .join(', ') || 'none'),
  );
  return report;
}

/** Rounds of the variant screen: each searches the instances the caps newly let in. */
const VARIANT_SCREEN_ROUNDS = 6;
/**
 * Each round searches as many instances as a cap this many times larger would keep, so a kind
 * whose questions rarely vary is refilled from searched reserves instead of one round at a time.
 */
const VARIANT_SCREEN_LOOKAHEAD = 2;

/**
 * The screen, with the variant screen: the instances the caps would keep (and as many again, in
 * the caps' order) are searched for a fresh variant at `epoch` exactly as a run searches them
 * (findVariants); an instance without one is rejected as `no-variant` and the screen runs again,
 * so the caps fill its place with the next candidates, which are searched in turn. Instances the
 * caps let in that could not be searched within VARIANT_SCREEN_ROUNDS are rejected too: every
 * kept instance has a variant.
 */
async function variantScreen(
  drafted: readonly Drafted[],
  loaded: readonly LoadedInstance[],
  outcomes: Map<string, HarvestOutcome>,
  demoRight: ReadonlySet<string>,
  options: { seed: number; maxTotal?: number },
  screenDeps: { epoch: number; harvest: HarvestBatch; log: (message: string) => void },
): Promise<ReturnType<typeof screen>> {
  const byId = new Map(loaded.map((l) => [l.instance.id, l]));
  const noVariant = new Map<string, string>();
  const searched = new Set<string>();
  const demo = new HeuristicClient();
  const unsearched = (result: ReturnType<typeof screen>): LoadedInstance[] =>
    result.accepted
      .map((s) => byId.get(s.drafted.instance.id)!)
      .filter((l) => !searched.has(l.instance.id) && !unvariable(l));
  const wide =
    options.maxTotal === undefined ? undefined : options.maxTotal * VARIANT_SCREEN_LOOKAHEAD;
  for (let round = 1; ; round++) {
    const screened = screen(drafted, outcomes, demoRight, { ...options, noVariant });
    const missing = unsearched(screened);
    if (!missing.length) return screened;
    if (round > VARIANT_SCREEN_ROUNDS) {
      for (const l of missing)
        noVariant.set(l.instance.id, `not searched within ${VARIANT_SCREEN_ROUNDS} rounds`);
      continue;
    }
    const fresh = unsearched(
      screen(drafted, outcomes, demoRight, { ...options, maxTotal: wide, noVariant }),
    );
    screenDeps.log(
      `Variant screen, round ${round}: searching ${fresh.length} instance(s) at epoch ${screenDeps.epoch}`,
    );
    const searches = searchesOf(fresh, { mode: 'only' }, screenDeps.epoch);
    for (const [id, outcome] of await screenDeps.harvest(searches)) outcomes.set(id, outcome);
    const found = await findVariants(searches, outcomes, screenDeps.harvest, demo);
    for (const l of fresh) searched.add(l.instance.id);
    for (const d of found.dropped)
      noVariant.set(variantOf(d.id)!.of, `${d.rule} at epoch ${screenDeps.epoch}: ${d.detail}`);
    screenDeps.log(
      `  ${found.valid.length} of ${fresh.length} have a variant; ${found.dropped.length} rejected as no-variant`,
    );
  }
}

/** The ids the demo model answers right (asked in process, with the prompt a run would send). */
async function demoModelRight(
  loaded: readonly LoadedInstance[],
  outcomes: ReadonlyMap<string, HarvestOutcome>,
): Promise<Set<string>> {
  const client = new HeuristicClient();
  const right = new Set<string>();
  for (const l of loaded) {
    const outcome = outcomes.get(l.instance.id);
    if (outcome?.status !== 'ok') continue;
    const record = await answerInstance(l, outcome.entry, client);
    if (record.correct) right.add(l.instance.id);
  }
  return right;
}
