import { readFileSync } from 'node:fs';
import * as nodeUtil from 'node:util';
import { dirname } from 'node:path';
import { backendFactory, oracleStores, type Lifecycle, type Logger } from '../config/assemble.js';
import { GENERATE_OPTION_NAMES, parseGenerateOptions } from '../config/options.js';
import { environmentSchema } from '../contracts/environment.js';
import { describeIssues } from '../contracts/instance.js';
import { ExitCode, UsageError } from '../errors.js';
import { HostSources } from '../environments/sources.js';
import { generate } from '../generate/generate.js';
import { tracerDigest } from '../harvest/tracer-digest.js';
import { bundledInstancesDir, tracerDir } from '../paths.js';
import { cacheLayout } from '../stores/layout.js';
import { loadSuite } from '../suite/load.js';
import { FsSuiteReader } from '../suite/reader.js';
import { statsTable, suiteStats } from '../suite/stats.js';
import { parseFlags, type Io } from './flags.js';

export const GENERATE_USAGE = `tracegate generate --environment FILE --tests DIR --out DIR [options]
  Scouts what each test file runs of the package, asks every applicable kind on its
  richest functions, harvests the candidates twice in the environment, screens them
  (docs/generate.md) and writes the kept ones as a suite. Same inputs and seed, same bytes.

  --environment FILE     an environment recipe (pinned packages, a git commit, an image)
  --tests DIR            self-contained test files (test_*.py) that drive the package
  --out DIR              the suite written into (environments/ and SUITE/ under it)
  --packages A,B         import names whose code is asked about (default: the environment name)
  --suite NAME           folder under --out and id prefix (default: the environment name)
  --seed S               chooses among ties and caps (default 0)
  --targets-per-file N   functions of each test file asked about (default 12)
  --max N                instances kept at most, round robin over kinds
  --timeout SECONDS      per instance's harvest (default 60)
  --report FILE          kept and rejected candidates, each with its rule (default OUT/SUITE/generate-report.json)
  --cache DIR --backend docker|local|auto --base-image IMAGE   as for harvest`;

export async function generateCommand(
  args: string[],
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<number> {
  const options = parseGenerateOptions(parseFlags(args, GENERATE_OPTION_NAMES, GENERATE_USAGE));
  let bytes: Buffer;
  try {
    bytes = readFileSync(options.environment);
  } catch (error) {
    throw new UsageError(`--environment ${options.environment}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(
      `--environment ${options.environment}: not JSON (${(error as Error).message})`,
    );
  }
  const parsed = environmentSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(`--environment ${options.environment}: ${describeIssues(parsed.error)}`);
  const recipe = parsed.data;
  const suite = options.suite ?? recipe.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  const report = await generate(
    {
      out: options.out,
      suite,
      recipe,
      recipeBytes: bytes,
      tests: options.tests,
      packages: options.packages ?? [recipe.name.replace(/-/g, '_')],
      seed: options.seed,
      targetsPerFile: options['targets-per-file'],
      ...(options.max ? { maxInstances: options.max } : {}),
      timeoutSeconds: options.timeout,
      ...(options.report ? { report: options.report } : {}),
    },
    {
      harvest: {
        backend: backendFactory(options, logger, lifecycle),
        sources: new HostSources(
          cacheLayout(options.cache),
          new FsSuiteReader(dirname(options.environment)),
          logger.log,
        ),
        ...oracleStores(options, logger),
      },
      tracerDigest: tracerDigest(tracerDir()),
      log: logger.log,
      warn: logger.warn,
      signal: lifecycle.signal,
    },
  );
  io.stdout(
    `${report.accepted} instance(s) kept of ${report.candidates} candidate(s): ` +
      Object.entries(report.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
  );
  return ExitCode.Pass;
}

export const STATS_USAGE = `tracegate stats [--instances DIR] [--json] [--markdown]
  The kind × package table of a suite (default: the bundled benchmark).`;

export function statsCommand(args: string[], io: Io, logger: Logger): number {
  const { parseArgs } = nodeUtil;
  let values: { instances?: string; json?: boolean; markdown?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        instances: { type: 'string' },
        json: { type: 'boolean' },
        markdown: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${STATS_USAGE}`);
  }
  const suite = loadSuite(values.instances ?? bundledInstancesDir());
  for (const r of suite.rejected) logger.warn(`Skipping ${r.reason}`);
  const stats = suiteStats(suite.instances);
  if (values.json) io.stdout(JSON.stringify(stats, null, 2));
  else io.stdout(statsTable(stats, values.markdown ? 'markdown' : 'text'));
  return ExitCode.Pass;
}
