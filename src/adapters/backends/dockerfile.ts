import type { ResolvedEnvironment } from '../../contracts/environment.js';

const PIP =
  '/opt/venv/bin/pip install --quiet --no-index --no-cache-dir --disable-pip-version-check --find-links /tmp/wheels';

/** Single-quoted for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The test runner's distributions: most environments pin the same ones, so their layer is shared. */
const RUNNER = new Set(['pytest', 'iniconfig', 'packaging', 'pluggy', 'pygments']);

/** `Pytest-9.1.1-py3-none-any.whl` → `pytest`. */
const distribution = (wheel: string): string =>
  wheel.split('-')[0]!.toLowerCase().replace(/[._]/g, '-');

/** The wheels of the runner layer (the test runner's) and of the environment's own layer. */
export function wheelLayers<T extends { name: string }>(
  wheels: readonly T[],
): { runner: T[]; own: T[] } {
  const runner = wheels.filter((w) => RUNNER.has(distribution(w.name)));
  return { runner, own: wheels.filter((w) => !runner.includes(w)) };
}

/**
 * The image of a `packages` or `git` environment: a venv with the resolved
 * wheels (no index, no network), and for git the checkout at `checkout`
 * installed as the recipe says (on sys.path by a .pth file, or by pip).
 *
 * Layers, so that environments share what they have in common: the venv and
 * the test runner's wheels first (the same files give the same layer: the
 * engine's cache builds it once for every environment pinning that runner),
 * then the environment's own wheels and checkout, and its labels last.
 */
export function dockerfile(base: string, env: ResolvedEnvironment, checkout: string): string {
  const wheels = env.source.kind === 'image' ? [] : env.source.wheels;
  const { runner, own } = wheelLayers(wheels);
  const lines = [`FROM ${base}`];
  const venv = ['python3 -m venv /opt/venv'];
  if (runner.length) {
    lines.push('COPY runner-wheels /tmp/runner-wheels');
    venv.push(
      `${PIP.replace('/tmp/wheels', '/tmp/runner-wheels')} ${runner.map((w) => q(`/tmp/runner-wheels/${w.name}`)).join(' ')}`,
      'rm -rf /tmp/runner-wheels',
    );
  }
  lines.push(`RUN ${venv.join(' \\\n  && ')}`, 'COPY wheels /tmp/wheels');
  const steps: string[] = [];
  if (own.length) steps.push(`${PIP} ${own.map((w) => q(`/tmp/wheels/${w.name}`)).join(' ')}`);
  const git = env.recipe.git;
  if (env.source.kind === 'git' && git) {
    lines.push(`COPY checkout ${checkout}`);
    if (git.install === 'path') {
      const paths = git.paths.map((p) => `${checkout}/${p}`.replace(/\/\.$/, ''));
      steps.push(
        `printf '%s\\n' ${paths.map(q).join(' ')} > "$(/opt/venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/tracegate-checkout.pth"`,
      );
    } else {
      steps.push(
        `${PIP} --no-build-isolation ${git.install === 'editable' ? '-e ' : ''}${checkout}`,
      );
    }
    if (git.command) steps.push(`cd ${checkout} && ${git.command}`);
    steps.push(`chmod -R a+rX ${checkout}`);
  }
  steps.push('rm -rf /tmp/wheels');
  lines.push(
    `RUN ${steps.join(' \\\n  && ')}`,
    `LABEL tracegate.environment=${JSON.stringify(env.recipe.name)} tracegate.digest="${env.digest}"`,
    '',
  );
  return lines.join('\n');
}
