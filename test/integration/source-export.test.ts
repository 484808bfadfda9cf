import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { LOCAL_BASES } from '../../src/adapters/backends/base-image.js';
import { DockerBackend } from '../../src/adapters/backends/docker/backend.js';
import {
  ArchiveTooLargeError,
  DockerodeClient,
} from '../../src/adapters/backends/docker/container-client.js';
import { exportSourceView } from '../../src/adapters/backends/docker/source-export.js';
import { HostSources } from '../../src/adapters/environments/sources.js';
import { cacheLayout } from '../../src/adapters/stores/layout.js';
import { FsSuiteReader } from '../../src/adapters/suite/reader.js';
import { environmentSchema, type ResolvedEnvironment } from '../../src/contracts/environment.js';
import { sourceViewSchema } from '../../src/contracts/source-view.js';
import { HarvestError } from '../../src/errors.js';
import { tracerDir } from '../../src/paths.js';
import { resolveEnvironment } from '../../src/stages/harvest/environments.js';
import { requireDocker } from '../helpers/docker.js';

const BENCHMARK = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'benchmark');
const SITE_PACKAGES = '/opt/venv/lib/python3.11/site-packages';

/** A member of a wheel (a zip), as the package index serves it. */
function wheelMember(wheel: string, member: string): string {
  return execFileSync(
    'python3',
    [
      '-c',
      'import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())',
      wheel,
      member,
    ],
    { encoding: 'utf8' },
  );
}

/** Containers of this process's exports still on the engine. */
async function leftExports(docker: Docker): Promise<number> {
  const left = await docker.listContainers({
    all: true,
    filters: { label: ['tracegate.export=1', `tracegate.pid=${process.pid}`] },
  });
  return left.length;
}

/** `context: repo`: the click environment's source, read out of its image by the Docker backend. */
describe("exporting an environment's source from its image", () => {
  let docker: Docker;
  let backend: DockerBackend;
  let env: ResolvedEnvironment;

  beforeAll(async () => {
    docker = await requireDocker();
    const cache = mkdtempSync(join(tmpdir(), 'tg-export-cache-'));
    const recipe = environmentSchema.parse(
      JSON.parse(readFileSync(join(BENCHMARK, 'click', 'environment.json'), 'utf8')),
    );
    // The local Debian base (Python 3.11): no pull is tried for python:3.11-slim.
    backend = new DockerBackend({
      baseImage: LOCAL_BASES['3.11']!.image,
      tracerDir: tracerDir(),
      log: () => {},
    });
    const sources = new HostSources(cacheLayout(cache), new FsSuiteReader(BENCHMARK), () => {});
    env = await resolveEnvironment(recipe, 'click', sources, backend);
  }, 600_000);

  it("holds site-packages as the tests import it: click's text as the wheel has it, no bytecode, no installers, the same bytes twice", async () => {
    const view = await backend.exportSource(env);
    expect(sourceViewSchema.parse(view)).toEqual(view);
    expect(view.origin).toBe(SITE_PACKAGES);

    const click =
      env.source.kind === 'packages'
        ? env.source.wheels.find((w) => w.name.startsWith('click-'))
        : undefined;
    expect(view.files['click/core.py']).toBe(wheelMember(click!.path, 'click/core.py'));
    expect(view.files['click/core.py']).toContain('class Command');
    expect(Object.keys(view.files)).toEqual(
      expect.arrayContaining([
        'click/__init__.py',
        'click-8.5.0.dist-info/METADATA',
        'pytest/__init__.py',
      ]),
    );

    const paths = [
      ...Object.keys(view.files),
      ...Object.keys(view.links),
      ...Object.keys(view.omitted),
    ];
    // The image has them (pip compiled every module it installed, the venv brought pip and setuptools).
    expect(paths.filter((p) => p.split('/').includes('__pycache__') || p.endsWith('.pyc'))).toEqual(
      [],
    );
    const installers =
      /^(pip|setuptools|pkg_resources|_distutils_hack|wheel)(\/|-[^/]*\.dist-info\/)|^distutils-precedence\.pth$/;
    expect(paths.filter((p) => installers.test(p))).toEqual([]);
    expect(Object.keys(view.files)).toEqual([...Object.keys(view.files)].sort());

    const again = await backend.exportSource(env);
    expect(JSON.stringify(again)).toBe(JSON.stringify(view));
    expect(await leftExports(docker)).toBe(0);
  });

  it('names the path and the image when the image has no such directory, and leaves no container', async () => {
    const client = new DockerodeClient(docker);
    const failed = exportSourceView(client, LOCAL_BASES['3.11']!.image, '/no/such/tree');
    await expect(failed).rejects.toBeInstanceOf(HarvestError);
    await expect(failed).rejects.toThrow(
      /^Could not export the source at \/no\/such\/tree from image tracegate\/base:bookworm: the image has no directory there\.$/,
    );
    expect(await leftExports(docker)).toBe(0);
  });

  it('stops reading an archive past its cap', async () => {
    const container = await new DockerodeClient(docker).create({
      Image: LOCAL_BASES['3.11']!.image,
      Cmd: ['true'],
      NetworkDisabled: true,
    });
    try {
      await expect(container.getArchive('/usr/lib/python3.11/.', 1024 * 1024)).rejects.toThrow(
        ArchiveTooLargeError,
      );
      const small = await container.getArchive('/etc/debian_version', 1024 * 1024);
      expect(small.length).toBeGreaterThan(0);
    } finally {
      await container.remove();
    }
  });
});
