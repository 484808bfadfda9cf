import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { freePort } from '../helpers/free-port.js';
import { cachedOracles } from '../helpers/cached-oracles.js';

/**
 * Environment images from a registry: Debian's docker-registry, started on loopback by the
 * test. The first harvest builds the environment's image and pushes it under its content tag; a
 * second harvest on an engine without the image (and an empty cache) pulls it instead of
 * building, and harvests the same oracles; a changed environment is another tag, built and
 * pushed anew; a registry that answers nothing is said and the harvest goes on.
 */
describe('environment images from a registry on loopback', () => {
  let registry: ChildProcess | undefined;
  let repository = '';
  const work = tempDir('tg-registry-');
  const suite = join(work, 'suite');

  beforeAll(async () => {
    await requireDocker();
    const port = await freePort();
    const config = join(work, 'registry.yml');
    writeFileSync(
      config,
      [
        'version: 0.1',
        'storage:',
        `  filesystem: { rootdirectory: ${join(work, 'blobs')} }`,
        'http:',
        `  addr: 127.0.0.1:${port}`,
        '',
      ].join('\n'),
    );
    registry = spawn('docker-registry', ['serve', config], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/v2/`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    repository = `127.0.0.1:${port}/tracegate-env`;
    cpSync(FIXTURE_SUITE, suite, { recursive: true });
  }, 60_000);
  afterAll(() => {
    registry?.kill();
    // Nothing of this registry stays in the engine (its port is gone with it).
    const left = execFileSync('docker', ['images', '--format', '{{.Repository}}:{{.Tag}}'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((name) => repository && name.startsWith(`${repository}:`));
    for (const name of left) execFileSync('docker', ['rmi', '-f', name], { stdio: 'ignore' });
  });

  /** A harvest of one instance through the registry `into` ('': no registry at all). */
  const harvest = (cache: string, into = repository) =>
    runCli([
      'harvest',
      '--instances',
      suite,
      '--ids',
      'fx-loops-collatz',
      '--cache',
      join(work, cache),
      ...(into ? ['--image-registry', into] : []),
    ]);
  /** Removes the environment's image from the engine, under every name it has (its digest's tags). */
  const forget = (run: { stdout: string }) => {
    const digest = /environment plain: .*\(([0-9a-f]{12})\)/.exec(run.stdout)?.[1];
    expect(digest).toBeDefined();
    const names = execFileSync('docker', ['images', '--format', '{{.Repository}}:{{.Tag}}'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((name) => /tracegate-env:/.test(name) && name.split(':').at(-1)!.startsWith(digest!));
    for (const name of names) execFileSync('docker', ['rmi', '-f', name], { stdio: 'ignore' });
  };

  const oracles = (cache: string) => cachedOracles(join(work, cache));

  it('pushes what it builds, pulls it on a cleared engine instead of building, and tags a changed environment anew', async () => {
    // A clean start: the environment's image may exist from another test.
    // (Without the registry: on an engine without the image it would build and push it first.)
    const warm = await harvest('c0', '');
    forget(warm);

    const first = await harvest('c1');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/is not in the registry .*; building it, then pushing it/);
    expect(first.stderr).toMatch(/Building tracegate-env:[0-9a-f]{16}/);
    const pushed = /Pushed (\S+) for environment "plain"/.exec(first.stderr)?.[1];
    expect(pushed).toMatch(
      new RegExp(`^${repository.replace(/[.]/g, '\\.')}:[0-9a-f]{16}-[0-9a-f]{12}$`),
    );
    const tags = await fetch(`http://${repository.split('/')[0]}/v2/tracegate-env/tags/list`).then(
      (r) => r.json() as Promise<{ tags: string[] }>,
    );
    expect(tags.tags).toEqual([pushed!.split(':').at(-1)]);

    forget(first);
    const second = await harvest('c2');
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`Pulled ${pushed} for environment "plain"`);
    expect(second.stderr).not.toMatch(/Building tracegate-env/);
    expect(oracles('c1')).toHaveLength(1);
    expect(oracles('c2')).toEqual(oracles('c1'));

    // Another package in the recipe: another digest, another tag, built and pushed.
    const recipe = join(suite, 'environments', 'plain.json');
    const plain = JSON.parse(readFileSync(recipe, 'utf8')) as { packages: string[] };
    writeFileSync(
      recipe,
      JSON.stringify({ ...plain, packages: [...plain.packages, 'six==1.17.0'] }),
    );
    const changed = await harvest('c3');
    expect(changed.code).toBe(0);
    expect(changed.stderr).toMatch(/Building tracegate-env/);
    const again = /Pushed (\S+) for environment "plain"/.exec(changed.stderr)?.[1];
    expect(again).toBeDefined();
    expect(again).not.toBe(pushed);
    forget(changed);

    // A registry that answers nothing: said twice (no pull, no push), and the harvest goes on.
    const closed = `127.0.0.1:${await freePort()}/tracegate-env`;
    const refused = await harvest('c4', closed);
    expect(refused.code).toBe(0);
    expect(refused.stderr).toMatch(/is not in the registry \(.+\); building it, then pushing it/);
    expect(refused.stderr).toMatch(
      new RegExp(
        `was not pushed to ${closed.replace(/[.]/g, '\\.')} \\(.+\\); the next runner builds it again`,
      ),
    );
    expect(oracles('c4')).toEqual(oracles('c3'));
    forget(refused);
  }, 600_000);
});
