import type Docker from 'dockerode';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_BASES } from '../../src/adapters/backends/base-image.js';
import { downloadWheels } from '../../src/adapters/environments/wheels.js';

const SCRIPTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts');

/** pytest and what it needs, pinned as the wheelhouse has them. */
export const PYTEST = [
  'pytest==9.1.1',
  'iniconfig==2.3.0',
  'packaging==26.3',
  'pluggy==1.6.0',
  'pygments==2.21.0',
];

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  return docker
    .getImage(tag)
    .inspect()
    .then(
      () => true,
      () => false,
    );
}

/**
 * `tag`: a venv at /opt/venv with pytest (wheels downloaded on the host, no network
 * inside) on one of tracegate's local bases, built with debootstrap when missing as the
 * product does; then `copy` (host path → /name) and the extra Dockerfile `lines`.
 */
export async function pytestImage(
  docker: Docker,
  options: { tag: string; base: string; python: string; copy?: string[]; lines?: string[] },
): Promise<string> {
  const { tag, base, python } = options;
  if (await imageExists(docker, tag)) return tag;
  if (!(await imageExists(docker, base))) {
    const suite = Object.values(LOCAL_BASES).find((b) => b.image === base)?.suite;
    if (!suite) throw new Error(`Base image ${base} is missing: run scripts/ensure-docker.sh`);
    execFileSync('bash', [join(SCRIPTS, 'build-base-image.sh'), suite, base], { stdio: 'inherit' });
  }
  const context = mkdtempSync(join(tmpdir(), 'tg-test-image-'));
  try {
    mkdirSync(join(context, 'wheels'));
    await downloadWheels({ name: 'test-image', python, packages: PYTEST }, join(context, 'wheels'));
    const copies = (options.copy ?? []).map((path) => {
      cpSync(path, join(context, basename(path)), { recursive: true });
      return basename(path);
    });
    writeFileSync(
      join(context, 'Dockerfile'),
      [
        `FROM ${base}`,
        'COPY wheels /tmp/wheels',
        'RUN python3 -m venv /opt/venv && /opt/venv/bin/pip install --quiet --no-index ' +
          `--find-links /tmp/wheels ${PYTEST.join(' ')} && rm -rf /tmp/wheels`,
        ...copies.map((name) => `COPY ${name} /${name}`),
        ...(options.lines ?? []),
        '',
      ].join('\n'),
    );
    const stream = await docker.buildImage(
      { context, src: ['Dockerfile', 'wheels', ...copies] },
      { t: tag, networkmode: 'none', rm: true, forcerm: true },
    );
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
        const failed = output?.find((o) => o.error);
        if (error || failed) reject(error ?? new Error(failed?.error));
        else resolve();
      }),
    );
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  return tag;
}
