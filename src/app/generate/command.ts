import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { backendFactory, oracleStores, type Lifecycle, type Logger } from '../config/assemble.js';
import type { GenerateOptions } from '../config/generate-options.js';
import { environmentSchema, type Environment } from '../../contracts/environment.js';
import { describeIssues } from '../../contracts/instance.js';
import { UsageError } from '../../errors.js';
import { HostSources, SELF_REPO } from '../../adapters/environments/sources.js';
import { gitOutput } from '../../adapters/git/exec.js';
import { tracerDigest } from '../../adapters/tracer/digest.js';
import { cacheLayout } from '../../adapters/stores/layout.js';
import { FsSuiteReader } from '../../adapters/suite/reader.js';
import { tracerDir } from '../../paths.js';
import { generate, type GenerateReport } from './generate.js';

/**
 * `tracegate generate`: the environment (a recipe file, or a git checkout as a private suite's
 * `self`), the packages asked about, then the generator with its harvest built here.
 */
export async function generateCommand(
  options: GenerateOptions,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<GenerateReport> {
  if (!options.environment && !options.repo)
    throw new UsageError('generate needs --environment FILE or --repo PATH');
  mkdirSync(options.out, { recursive: true });
  const template = options.environment ? readRecipe(options.environment) : undefined;
  const { recipe, bytes } = options.repo
    ? repoRecipe(options.repo, options.out, options.suite, template?.recipe, options.python)
    : template!;
  const suite = options.suite ?? recipe.name.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  const packages =
    options.packages ??
    (options.repo ? repoPackages(options.repo, recipe) : [recipe.name.replace(/-/g, '_')]);
  return generate(
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

const git = (repo: string, ...args: string[]): string | undefined =>
  gitOutput(['-C', repo, ...args]);

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
