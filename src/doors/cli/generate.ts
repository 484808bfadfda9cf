import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import {
  backendFactory,
  loadAnySuite,
  oracleStores,
  type Lifecycle,
  type Logger,
} from '../../app/config/assemble.js';
import { GENERATE_OPTION_NAMES, parseGenerateOptions } from '../../app/config/generate-options.js';
import { environmentSchema, type Environment } from '../../contracts/environment.js';
import { describeIssues } from '../../contracts/instance.js';
import { ExitCode, UsageError } from '../../errors.js';
import { HostSources, SELF_REPO } from '../../adapters/environments/sources.js';
import { generate } from '../../app/generate/generate.js';
import { tracerDigest } from '../../adapters/tracer/digest.js';
import { bundledInstancesDir, tracerDir } from '../../paths.js';
import { cacheLayout } from '../../adapters/stores/layout.js';
import { FsSuiteReader } from '../../adapters/suite/reader.js';
import { statsTable, suiteStats } from '../../adapters/suite/stats.js';
import { parseCommandArgs, parseFlags, type Io } from './flags.js';

export const GENERATE_USAGE = `tracegate generate (--environment FILE | --repo PATH) --tests DIR --out DIR [options]
  Scouts what each test file runs of the package, asks every applicable kind on its
  richest functions, harvests the candidates twice in the environment, screens them
  (docs/generate.md) and writes the kept ones as a suite. Same inputs and seed, same bytes.

  --environment FILE     an environment recipe (pinned packages, a git commit, an image)
  --repo PATH            a git checkout: the environment is that repository at HEAD (a private
                         suite; --out inside it names it "self"); with --environment, that
                         recipe's packages and python are installed beside it
  --python 3.X           the interpreter of a --repo environment (default 3.11)
  --tests DIR            self-contained test files (test_*.py) that drive the package
  --out DIR              the suite written into (environments/ and SUITE/ under it)
  --packages A,B         import names whose code is asked about (default: the environment name)
  --suite NAME           folder under --out and id prefix (default: the environment name)
  --seed S               chooses among ties and caps (default 0)
  --targets-per-file N   functions of each test file asked about (default 12)
  --max N                instances kept at most, round robin over kinds
  --timeout SECONDS      per instance's harvest (default 60)
  --report FILE          kept and rejected candidates, each with its rule (default OUT/SUITE/generate-report.json)
  --variant-screen E|off keep only instances a run at epoch E finds a fresh variant of (default 0;
                         off: no screen, faster, but items that cannot vary can be memorised)
  --cache DIR --backend docker|local|auto --base-image IMAGE   as for harvest`;

export async function generateCommand(
  args: string[],
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<number> {
  const options = parseGenerateOptions(
    parseFlags(args, GENERATE_OPTION_NAMES, GENERATE_USAGE, 'generate'),
  );
  if (!options.environment && !options.repo)
    throw new UsageError(`generate needs --environment FILE or --repo PATH\n\n${GENERATE_USAGE}`);
  mkdirSync(options.out, { recursive: true });
  const template = options.environment ? readRecipe(options.environment) : undefined;
  const { recipe, bytes } = options.repo
    ? repoRecipe(options.repo, options.out, options.suite, template?.recipe, options.python)
    : template!;
  const suite = options.suite ?? recipe.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  const packages =
    options.packages ??
    (options.repo ? repoPackages(options.repo, recipe) : [recipe.name.replace(/-/g, '_')]);
  const report = await generate(
    {
      out: options.out,
      suite,
      recipe,
      recipeBytes: bytes,
      tests: options.tests,
      packages,
      seed: options.seed,
      targetsPerFile: options['targets-per-file'],
      ...(options.max ? { maxInstances: options.max } : {}),
      timeoutSeconds: options.timeout,
      ...(options.report ? { report: options.report } : {}),
      ...(options['variant-screen'] !== undefined
        ? { variantScreen: options['variant-screen'] }
        : {}),
    },
    {
      harvest: {
        backend: backendFactory(options, logger, lifecycle),
        sources: new HostSources(
          cacheLayout(options.cache),
          new FsSuiteReader(options.out),
          logger.log,
        ),
        ...oracleStores(options, logger),
        retryFailed: options['retry-failed'],
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

/** pytest and its dependencies, pinned as the bundle pins them (a --repo environment's default packages). */
const PYTEST_PINS = [
  'pytest==9.1.1',
  'iniconfig==2.3.0',
  'packaging==26.3',
  'pluggy==1.6.0',
  'pygments==2.21.0',
];

function readRecipe(file: string): { recipe: Environment; bytes: Buffer } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(`--environment ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`--environment ${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = environmentSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(`--environment ${file}: ${describeIssues(parsed.error)}`);
  return { recipe: parsed.data, bytes };
}

function git(repo: string, ...args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The environment of a private suite: the repository at its HEAD commit (a
 * `git` source), named `self` when the suite is inside it (so the suite keeps
 * working wherever the repository is cloned), else by its origin URL.
 */
function repoRecipe(
  repoPath: string,
  out: string,
  suite: string | undefined,
  template: Environment | undefined,
  python: string,
): { recipe: Environment; bytes: Buffer } {
  const top = git(repoPath, 'rev-parse', '--show-toplevel');
  const commit = git(repoPath, 'rev-parse', 'HEAD');
  if (!top || !commit)
    throw new UsageError(
      `--repo ${repoPath}: not a git checkout with a commit (git rev-parse HEAD failed).`,
    );
  const root = realpathSync(top);
  const inside = realpathSync(out).startsWith(root + sep);
  const origin = git(repoPath, 'remote', 'get-url', 'origin');
  if (!inside && !origin)
    throw new UsageError(
      `--repo ${repoPath}: put --out inside the repository (the suite then names it "self"), ` +
        'or give the repository an origin URL to clone it from.',
    );
  const paths = existsSync(join(root, 'src')) ? ['src', '.'] : ['.'];
  const name =
    suite ??
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-');
  const recipe = environmentSchema.parse({
    name,
    python: template?.python ?? python,
    packages: template?.packages.length ? template.packages : PYTEST_PINS,
    git: { repo: inside ? SELF_REPO : origin, commit, install: 'path', paths },
  });
  const written = {
    name: recipe.name,
    python: recipe.python,
    packages: recipe.packages,
    git: { repo: recipe.git!.repo, commit, install: 'path', paths },
  };
  return { recipe, bytes: Buffer.from(`${JSON.stringify(written, null, 2)}\n`) };
}

/** The repository's top-level packages (directories with __init__.py on its paths, tests excluded). */
function repoPackages(repoPath: string, recipe: Environment): string[] {
  const root = realpathSync(git(repoPath, 'rev-parse', '--show-toplevel') ?? repoPath);
  const found = new Set<string>();
  for (const path of recipe.git?.paths ?? ['.'])
    for (const name of existsSync(join(root, path)) ? readdirSync(join(root, path)).sort() : [])
      if (
        /^[A-Za-z_]\w*$/.test(name) &&
        !/^tests?$/.test(name) &&
        existsSync(join(root, path, name, '__init__.py'))
      )
        found.add(name);
  if (!found.size)
    throw new UsageError(
      `--repo ${repoPath}: no package (a directory with __init__.py) found; give --packages.`,
    );
  return [...found];
}

export const STATS_USAGE = `tracegate stats [--instances DIR] [--json] [--markdown]
  The kind × package table of a suite (default: the bundled benchmark).`;

export function statsCommand(args: string[], io: Io, logger: Logger): number {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        instances: { type: 'string' },
        json: { type: 'boolean' },
        markdown: { type: 'boolean' },
      },
      strict: true,
    },
    STATS_USAGE,
  );
  const suite = loadAnySuite(values.instances ?? bundledInstancesDir());
  for (const r of suite.rejected) logger.warn(`Skipping ${r.reason}`);
  const stats = suiteStats(suite.instances);
  if (values.json) io.stdout(JSON.stringify(stats, null, 2));
  else io.stdout(statsTable(stats, values.markdown ? 'markdown' : 'text'));
  return ExitCode.Pass;
}
