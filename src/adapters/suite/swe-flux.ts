import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { environmentSchema, type Environment } from '../../contracts/environment.js';
import { describeIssues, templateSchema, type Instance } from '../../contracts/instance.js';
import { QUESTION_KINDS, type QuestionKind } from '../../contracts/kinds.js';
import { InstanceError, UsageError } from '../../errors.js';
import { sha256 } from '../../util/hash.js';
import type { LoadedInstance, RejectedFile, Suite, SuiteReader } from '../../contracts/suite.js';
import { hashDirectory, SKIPPED } from './files.js';
import { FsSuiteReader } from './reader.js';
import { ownedTempDir } from '../backends/temp-dirs.js';

/**
 * A SWE-Flux run directory as a suite (docs/swe-flux.md): `instances/<id>/{eval.sh,
 * files/testcase.py, files/parser.py, oracle.json}` beside the run's shared harness
 * files (`shared/files/`: trace plugin and conftest). Each instance runs by its own
 * harness in the run's image (an `image` environment, /testbed); its oracle.json is the
 * published oracle, which the re-run must reproduce to be gated on. The run is shown a
 * copy of the QA directory without the published oracles (`harnessView`): the comparison
 * happens on the host, and a parser that copied the answer it is checked against would
 * reproduce anything.
 */

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SHARED = join('shared', 'files');

/** The QA directory of a SWE-Flux run at `dir` (the run or its `instances/`), or undefined when it is not one. */
export function sweFluxDir(dir: string): string | undefined {
  const abs = resolve(dir);
  for (const candidate of [abs, join(abs, 'instances')]) {
    if (!existsSync(candidate) || !statSync(candidate).isDirectory()) continue;
    if (existsSync(join(candidate, 'shared'))) return candidate;
    const reader = new FsSuiteReader(candidate);
    if (reader.names('.').some((n) => existsSync(join(candidate, n, 'eval.sh')))) return candidate;
  }
  return undefined;
}

/** `NAME=IMAGE,NAME=IMAGE` (the `swe-flux-images` input): SWE-Flux image names to local images. */
export function parseImageMap(text: string | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const part of (text ?? '').split(',').map((p) => p.trim())) {
    if (!part) continue;
    const at = part.indexOf('=');
    if (at <= 0 || at === part.length - 1)
      throw new UsageError(
        `--swe-flux-images: "${part}" is not NAME=IMAGE (e.g. swefluxlive/click:latest=click-local:1)`,
      );
    map[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return map;
}

/** The suite of the QA directory `qaDir` (as `sweFluxDir` found it); `images` maps the run's image names. */
export function loadSweFluxSuite(qaDir: string, images: Record<string, string> = {}): Suite {
  const reader = new FsSuiteReader(qaDir);
  if (!existsSync(join(qaDir, SHARED)))
    throw new UsageError(
      `--instances ${qaDir}: not a SWE-Flux run directory: ${join(qaDir, SHARED)} is missing ` +
        "(the run's shared harness files: trace plugin and conftest)",
    );
  const image = runImage(reader);
  const ref = images[image] ?? image;
  const environment = environmentSchema.parse({
    name: `swe-flux:${image}`,
    image: { ref, workdir: '/testbed' },
  });
  const shared = hashDirectory(reader, SHARED);
  const instances: LoadedInstance[] = [];
  const rejected: RejectedFile[] = [];
  for (const name of reader.names('.')) {
    if (name === 'shared' || name.startsWith('.') || name === '__pycache__') continue;
    const file = join(qaDir, name);
    try {
      if (reader.kind(name) !== 'dir') continue;
      instances.push(loadInstance(reader, name, environment, shared, image));
    } catch (error) {
      if (!(error instanceof InstanceError)) throw error;
      rejected.push({ file, ...(ID.test(name) ? { id: name } : {}), reason: error.message });
    }
  }
  if (instances.length) {
    const view = harnessView(
      reader,
      instances.map((i) => i.instance.id),
    );
    for (const loaded of instances) loaded.dir = view;
  }
  return {
    reader,
    instances: instances.sort((a, b) => (a.instance.id < b.instance.id ? -1 : 1)),
    rejected,
  };
}

/** Harness views this process made, removed when it exits. */
const views = new Set<string>();

/**
 * What the run's harness sees of the QA directory: a host copy of `shared/` and the
 * directory of each instance in `ids`, every published `oracle.json` left out (read
 * through the suite reader: regular files inside the run, size-bounded). Removed when
 * the process exits; one a killed process left is swept by a later harvest.
 */
export function harnessView(reader: SuiteReader, ids: readonly string[]): string {
  const view = ownedTempDir('view');
  if (!views.size)
    process.once('exit', () => views.forEach((v) => rmSync(v, { recursive: true, force: true })));
  views.add(view);
  const copy = (rel: string, top: boolean): void => {
    mkdirSync(join(view, rel), { recursive: true });
    for (const name of reader.names(rel)) {
      if (SKIPPED(name) || (top && name === 'oracle.json')) continue;
      const child = join(rel, name);
      if (reader.kind(child) === 'dir') copy(child, false);
      else writeFileSync(join(view, child), reader.read(child));
    }
  };
  copy(SHARED, false);
  for (const id of ids) copy(id, true);
  return view;
}

/** The image the run's host runner names (`IMAGE="${IMAGE:-name}"` in run_qa_fromhost.sh), else the QA dir's name. */
function runImage(reader: SuiteReader): string {
  for (const runner of ['run_qa_fromhost.sh', 'run_all_qa_fromhost.sh']) {
    if (!reader.names('.').includes(runner)) continue;
    const text = reader.read(runner, 64 * 1024).toString('utf8');
    const m = /^IMAGE="\$\{IMAGE:-([^}"]+)\}"/m.exec(text);
    if (m) return m[1]!;
  }
  return reader.root.split('/').pop()!;
}

function loadInstance(
  reader: SuiteReader,
  name: string,
  environment: Environment,
  shared: string,
  image: string,
): LoadedInstance {
  const where = join(reader.root, name);
  const need = (rel: string): Buffer => {
    if (!reader.names(join(name, ...rel.split('/').slice(0, -1))).includes(rel.split('/').pop()!))
      throw new InstanceError(
        where,
        `${rel} is missing (a SWE-Flux instance has eval.sh, files/testcase.py, oracle.json)`,
      );
    return reader.read(join(name, rel));
  };
  if (!ID.test(name))
    throw new InstanceError(
      where,
      `"${name}" is not a usable instance id (letters, digits, . _ -)`,
    );
  const evalSh = need('eval.sh').toString('utf8');
  need('files/testcase.py');
  const oracleText = need('oracle.json').toString('utf8');
  const setting = (key: string): string | undefined =>
    new RegExp(`^(?:export\\s+)?${key}="([^"]*)"`, 'm').exec(evalSh)?.[1];
  const declared = setting('INSTANCE_ID');
  if (declared !== undefined && declared !== name)
    throw new InstanceError(
      where,
      `eval.sh says INSTANCE_ID="${declared}", the directory is ${name}`,
    );
  const testId = setting('TEST_ID');
  if (!testId) throw new InstanceError(where, 'eval.sh sets no TEST_ID (the pytest id it runs)');
  const qa = testId.split('/')[0]!;
  if (!ID.test(qa) || !testId.startsWith(`${qa}/${name}/`))
    throw new InstanceError(where, `eval.sh's TEST_ID "${testId}" is not <qa dir>/${name}/…`);
  let oracle: Record<string, unknown>;
  try {
    oracle = JSON.parse(oracleText) as Record<string, unknown>;
  } catch (error) {
    throw new InstanceError(where, `oracle.json is not valid JSON (${(error as Error).message})`);
  }
  const kind = oracle.question_kind;
  if (typeof kind !== 'string' || !(QUESTION_KINDS as readonly string[]).includes(kind))
    throw new InstanceError(
      where,
      `oracle.json: question_kind ${JSON.stringify(kind)} is not one of ${QUESTION_KINDS.join(', ')}`,
    );
  if (typeof oracle.question !== 'string' || !oracle.question.trim())
    throw new InstanceError(where, 'oracle.json: question must be a non-empty string');
  const template = templateSchema.safeParse(oracle.template_answer);
  if (!template.success)
    throw new InstanceError(
      where,
      `oracle.json: template_answer ${describeIssues(template.error)}`,
    );
  if (!('oracle_answer' in oracle))
    throw new InstanceError(where, 'oracle.json has no oracle_answer');
  const traceFile = setting('TRACE_FILE');
  const traceFunc = setting('TRACE_FUNC')?.split(',')[0]?.trim();
  const instance: Instance = {
    id: name,
    kind: kind as QuestionKind,
    environment: environment.name,
    tests: [testId],
    target: { file: traceFile || 'unknown', function: traceFunc || 'unknown' },
    query: {},
    timeout_seconds: 600,
    cwd: 'checkout',
    expect_failure: false,
  };
  return {
    instance,
    dir: reader.root,
    file: join(name, 'oracle.json'),
    contentHash: sha256(hashDirectory(reader, name), shared),
    environment,
    environmentDir: '.',
    sweFlux: { qa, instance: name, published: oracle.oracle_answer, image },
  };
}
