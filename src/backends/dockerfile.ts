import type { ResolvedEnvironment } from '../contracts/environment.js';

const PIP =
  '/opt/venv/bin/pip install --quiet --no-index --no-cache-dir --disable-pip-version-check --find-links /tmp/wheels';

/** Single-quoted for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The image of a `packages` or `git` environment: a venv with the resolved
 * wheels (no index, no network), and for git the checkout at `checkout`
 * installed as the recipe says (on sys.path by a .pth file, or by pip).
 */
export function dockerfile(base: string, env: ResolvedEnvironment, checkout: string): string {
  const wheels =
    env.source.kind === 'image' ? [] : env.source.wheels.map((w) => `/tmp/wheels/${w.name}`);
  const lines = [
    `FROM ${base}`,
    `LABEL tracegate.environment=${JSON.stringify(env.recipe.name)} tracegate.digest="${env.digest}"`,
    'COPY wheels /tmp/wheels',
  ];
  const steps = ['python3 -m venv /opt/venv'];
  if (wheels.length) steps.push(`${PIP} ${wheels.map(q).join(' ')}`);
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
  lines.push(`RUN ${steps.join(' \\\n  && ')}`, '');
  return lines.join('\n');
}
