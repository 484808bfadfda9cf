import { execFileSync } from 'node:child_process';
import {
  cpSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  HEURISTIC_MODEL,
  startHeuristicServer,
  type RunningServer,
} from '../../src/adapters/heuristic-model/server.js';
import { runAction, type ActionRun } from '../helpers/action.js';
import { FIXTURE_SUITE, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FakeGitHub, runtimeToken } from '../helpers/github-server.js';

/**
 * The oracle cache through @actions/cache's own protocol (cache service v2, Twirp
 * `CacheService` on a loopback server, archives up and down through signed blob URLs), driven
 * by the bundled Action and harvested in real Docker: each run is a fresh runner (an empty
 * cache directory), so whatever it does not harvest came through the service.
 */
describe('the oracle cache on a runner: the Actions cache service end to end', () => {
  const github = new FakeGitHub();
  let model: RunningServer;
  let api = '';
  const workspace = tempDir('tg-actions-cache-');
  const suite = join(workspace, 'suite');
  let runs = 0;

  /**
   * One job on a fresh runner: the workflow's cache directory, empty (the same path on every
   * runner, as a workflow names it: the path is part of the entry's version), its run id, its
   * ref's cache scope.
   */
  const job = (
    ref: string,
    readable: string[] = [],
    inputs: Record<string, string> = {},
    /** A runner that keeps its workspace (self-hosted): the cache directory is not emptied. */
    keepCache = false,
  ): Promise<ActionRun> => {
    const run = ++runs;
    if (!keepCache) rmSync(join(workspace, 'cache'), { recursive: true, force: true });
    const pull = /^refs\/pull\/(\d+)\//.exec(ref)?.[1];
    const event = pull
      ? {
          pull_request: { number: Number(pull), head: { sha: 'f'.repeat(40), ref: 'feature' } },
          repository: { name: 'models', owner: { login: 'acme' } },
        }
      : {
          after: String(run).repeat(40).slice(0, 40),
          repository: { name: 'models', owner: { login: 'acme' } },
        };
    return runAction(
      {
        endpoint: model.url,
        model: HEURISTIC_MODEL,
        instances: suite,
        cache: join(workspace, 'cache'),
        out: join(workspace, `out-${run}`),
        // A base of this file's own name: its environment's image is built here, by the first run.
        'base-image': BASE,
        comment: 'false',
        'check-run': 'false',
        history: join(workspace, 'history'),
        ...inputs,
      },
      {
        GITHUB_API_URL: api,
        GITHUB_REPOSITORY: 'acme/models',
        GITHUB_WORKSPACE: workspace,
        GITHUB_RUN_ID: String(run),
        GITHUB_EVENT_NAME: pull ? 'pull_request' : 'push',
        GITHUB_REF: ref,
        GITHUB_SHA: String(run).repeat(40).slice(0, 40),
        ACTIONS_RESULTS_URL: `${api}/`,
        ACTIONS_CACHE_SERVICE_V2: 'true',
        ACTIONS_RUNTIME_TOKEN: runtimeToken(run, ref, readable),
      },
      event,
    );
  };
  /** `Oracles: C from cache, H harvested, F failed` of a run that finished, as numbers. */
  const oracles = (run: ActionRun) => {
    if (run.code !== 0) throw new Error(`the run exited ${run.code}:\n${run.stdout}`);
    const m = /Oracles: (\d+) from cache, (\d+) harvested, (\d+) failed/.exec(run.stdout);
    if (!m) throw new Error(`no oracle summary in:\n${run.stdout}`);
    return { cached: Number(m[1]), harvested: Number(m[2]), failed: Number(m[3]) };
  };
  const cacheCalls = () =>
    github.requests
      .filter((r) => r.path.includes('.CacheService/'))
      .map((r) => r.path.split('/').pop());
  const oracleEntries = () => github.cache.filter((e) => e.key.startsWith('tracegate-v2-'));
  const imageEntries = () => github.cache.filter((e) => e.key.startsWith('tracegate-image-'));
  /** Keeps only the image entries: the next run must harvest, and so needs its image. */
  const dropOracleEntries = () => {
    for (const e of oracleEntries()) github.cache.splice(github.cache.indexOf(e), 1);
  };
  const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
  const BASE = `tracegate-test-actions-cache-base:${process.pid}`;
  /** The environment image the first run built (`tracegate-env:…`). */
  let envImage = '';

  beforeAll(async () => {
    await requireDocker();
    docker('tag', 'tracegate/base:bookworm', BASE);
    cpSync(FIXTURE_SUITE, suite, { recursive: true });
    model = await startHeuristicServer();
    api = await github.start();
  });
  afterAll(async () => {
    await github.stop();
    await model.close();
    for (const image of [envImage, BASE, VICTIM])
      if (image) execFileSync('docker', ['rmi', '-f', image], { stdio: 'ignore' });
  });
  const VICTIM = `tracegate-test-actions-cache-victim:${process.pid}`;

  let total = 0;
  it('a push saves; the next push on another commit restores it and starts no container', async () => {
    const first = await job('refs/heads/main');
    expect(first.code).toBe(0);
    total = oracles(first).harvested;
    expect(total).toBeGreaterThan(3);
    expect(oracles(first).cached).toBe(0);
    expect(first.stdout).toContain('No tracegate cache restored');
    expect(first.stdout).toMatch(
      /Saved the tracegate cache as tracegate-v2-[0-9a-f]+-[0-9a-f]+-1-1/,
    );
    envImage = /Building (tracegate-env:[0-9a-f]+) for environment/.exec(first.stdout)?.[1] ?? '';
    expect(envImage).not.toBe('');
    expect(oracleEntries()).toHaveLength(1);
    expect(oracleEntries()[0]).toMatchObject({ scope: 'refs/heads/main', finalized: true });
    expect(oracleEntries()[0]!.blob.length).toBeGreaterThan(0);
    // The image it built went in too, as its own entry: restore looked first, then save.
    expect(imageEntries()).toHaveLength(1);
    expect(first.stdout).toContain(`Saved image ${imageEntries()[0]!.key} as`);
    expect(cacheCalls()).toEqual([
      'GetCacheEntryDownloadURL', // the oracles
      'GetCacheEntryDownloadURL', // the image, before building it
      'CreateCacheEntry',
      'FinalizeCacheEntryUpload',
      'CreateCacheEntry',
      'FinalizeCacheEntryUpload',
    ]);

    const second = await job('refs/heads/main');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Restored the tracegate cache from ${oracleEntries()[0]!.key}`);
    expect(oracles(second)).toEqual({ cached: total, harvested: 0, failed: 0 });
    expect(second.stdout).not.toContain('Harvesting '); // no container started
    expect(second.outputs.score).toBe(first.outputs.score);
    // The model's revision is the commit: the first push's replies (restored, never read: another
    // revision) are left out of the entry the second saves; the first had nothing of others'.
    expect(first.stdout).not.toContain('of other runs out of the shared cache');
    expect(second.stdout).toContain(
      `Left ${total} reply(ies) of other runs out of the shared cache (none was read).`,
    );
  }, 600_000);

  it("a pull request restores from its base branch's entry and saves only in its own scope", async () => {
    const main = github.cache.filter((e) => e.scope === 'refs/heads/main').length;
    const pr = await job('refs/pull/7/merge', ['refs/heads/main']);
    expect(pr.code).toBe(0);
    expect(oracles(pr)).toEqual({ cached: total, harvested: 0, failed: 0 });
    const saved = github.cache.filter((e) => e.scope === 'refs/pull/7/merge');
    expect(saved).toHaveLength(1);
    expect(github.cache.filter((e) => e.scope === 'refs/heads/main')).toHaveLength(main);
    // Another PR sees main's entries, never PR 7's: it restores main's newest.
    const other = await job('refs/pull/8/merge', ['refs/heads/main']);
    const newestMain = oracleEntries()
      .filter((e) => e.scope === 'refs/heads/main')
      .at(-1)!;
    expect(other.stdout).toContain(`Restored the tracegate cache from ${newestMain.key}`);
  }, 600_000);

  it('a suite that grew restores the older entry and harvests only the new instance', async () => {
    const from = join(suite, 'basic', 'fx-loops-collatz-7');
    const to = join(suite, 'basic', 'fx-loops-collatz-7b');
    cpSync(from, to, { recursive: true });
    const file = join(to, 'instance.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"fx-loops-collatz-7"', '"fx-loops-collatz-7b"'),
    );
    const grown = await job('refs/heads/main');
    expect(grown.code).toBe(0);
    expect(grown.stdout).toMatch(/Cache hit for restore-key: tracegate-v2-/);
    expect(oracles(grown)).toEqual({ cached: total, harvested: 1, failed: 0 });
    total += 1;
  }, 600_000);

  it('a tampered entry is validated on restore: a link is not followed, a copied oracle does not belong; both re-harvested', async () => {
    const entry = oracleEntries()
      .filter((e) => e.scope === 'refs/heads/main')
      .at(-1)!;
    const unpacked = tempDir('tg-actions-cache-tamper-');
    execFileSync('tar', ['-x', '--use-compress-program', 'unzstd', '-P', '-C', unpacked], {
      input: entry.blob,
    });
    const slots = join(unpacked, 'cache', 'oracles');
    const [a, b, c] = readdirSync(slots).sort();
    rmSync(join(slots, a!, 'oracle.json'));
    symlinkSync('/etc/hostname', join(slots, a!, 'oracle.json'));
    cpSync(join(slots, b!), join(slots, c!), { recursive: true, force: true });
    entry.blob = execFileSync('tar', [
      '--posix',
      '-c',
      '--use-compress-program',
      'zstd',
      '-P',
      '-C',
      unpacked,
      'cache',
    ]);
    const run = await job('refs/heads/main');
    expect(run.stdout).toContain(`Restored the tracegate cache from ${entry.key}`);
    expect(oracles(run)).toEqual({ cached: total - 2, harvested: 2, failed: 0 });
    expect(run.stdout).toMatch(/does not belong to [\w-]+; re-harvesting it/);
    expect(run.stdout).not.toContain(readFileSync('/etc/hostname', 'utf8').trim() + '"');
  }, 600_000);

  it('a restore into a cache directory that already holds files keeps them, and validates what it lands', async () => {
    await job('refs/heads/main'); // leaves the cache directory full
    const slots = join(workspace, 'cache', 'oracles');
    const [first] = readdirSync(slots).sort();
    writeFileSync(join(slots, first!, 'oracle.json'), '{"not": "an oracle"');
    writeFileSync(join(slots, 'left-by-a-person.txt'), 'kept');
    const run = await job('refs/heads/main', [], {}, true);
    expect(run.stdout).toMatch(/Restored the tracegate cache from tracegate-v2-/);
    const got = oracles(run);
    expect(got.failed).toBe(0);
    expect(got.cached + got.harvested).toBe(total);
    expect(got.harvested).toBeLessThanOrEqual(1); // the edited one, if the restore did not replace it
    expect(readFileSync(join(slots, 'left-by-a-person.txt'), 'utf8')).toBe('kept');
  }, 600_000);

  it('a failing service costs time only, and says so: rate-limited, truncated download, refused reservation', async () => {
    for (const [faults, says] of [
      [{ status: 429 }, /Failed to restore: .*429|rate limit/i],
      [{ status: 503 }, /Failed to restore: .*503|unavailable/i],
      [{ truncate: true }, /Failed to restore: .*tar/],
      [{ refuseCreate: true }, /The Actions cache did not take the tracegate cache/],
    ] as const) {
      github.cacheFaults = faults;
      let run: ActionRun;
      try {
        run = await job('refs/heads/main');
      } finally {
        github.cacheFaults = {};
      }
      expect({ faults, code: run.code }).toEqual({ faults, code: 0 });
      expect(run.stdout).toMatch(says);
      const got = oracles(run);
      expect(got.failed).toBe(0);
      expect(got.cached + got.harvested).toBe(total);
      if (!('refuseCreate' in faults)) expect(got.harvested).toBe(total); // nothing restored
    }
  }, 900_000);

  /** The image entry as a runner restores it: `<cache>/images/<key>/image.tar.gz`, in a zstd tar. */
  const repackImage = (forged: Buffer) => {
    const entry = imageEntries()[0]!;
    const unpacked = tempDir('tg-actions-cache-image-');
    execFileSync('tar', ['-x', '--use-compress-program', 'unzstd', '-P', '-C', unpacked], {
      input: entry.blob,
    });
    const file = join(unpacked, 'cache', 'images', entry.key, 'image.tar.gz');
    expect(statSync(file).size).toBeGreaterThan(0);
    writeFileSync(file, forged);
    entry.blob = execFileSync(
      'tar',
      ['--posix', '-c', '--use-compress-program', 'zstd', '-P', '-C', unpacked, 'cache'],
      { maxBuffer: 1 << 30 },
    );
  };

  it('a fresh runner loads the environment image from the cache instead of building it', async () => {
    docker('rmi', envImage);
    dropOracleEntries();
    const run = await job('refs/heads/main');
    expect(oracles(run)).toEqual({ cached: 0, harvested: total, failed: 0 });
    expect(run.stdout).toMatch(
      new RegExp(`Loaded ${envImage} for environment "[^"]+" from the Actions cache \\(\\d+ MB`),
    );
    expect(run.stdout).not.toContain('Building tracegate-env');
    // Saved without its base's layers: the entry is a fraction of the image.
    const [entry] = imageEntries();
    const imageBytes = Number(docker('image', 'inspect', envImage, '--format', '{{.Size}}'));
    expect(entry!.blob.length).toBeLessThan(imageBytes / 3);
    expect(imageEntries()).toHaveLength(1); // loaded, not saved again
  }, 600_000);

  it('a shelved archive that would tag another image, or fill the disk, is refused before loading: the image is built', async () => {
    // The environment's own image, saved under another name: loading it would move that name.
    docker('tag', envImage, VICTIM);
    const forged = execFileSync('bash', ['-c', `docker save ${VICTIM} | gzip -1`], {
      maxBuffer: 1 << 30,
    });
    docker('tag', BASE, VICTIM);
    const victimBefore = docker('image', 'inspect', VICTIM, '--format', '{{.Id}}');
    repackImage(forged);
    docker('rmi', envImage);
    dropOracleEntries();
    const run = await job('refs/heads/main');
    expect(oracles(run)).toEqual({ cached: 0, harvested: total, failed: 0 });
    expect(run.stdout).toMatch(
      new RegExp(`cached image of environment "[^"]+" was not used \\(it tags \\["${VICTIM}"\\]`),
    );
    expect(run.stdout).toContain(`Building ${envImage}`);
    expect(docker('image', 'inspect', VICTIM, '--format', '{{.Id}}')).toBe(victimBefore);

    // An archive that would fill the disk when unpacked: stopped at its bound, the image built.
    const bomb = execFileSync('bash', ['-c', 'head -c 300M /dev/zero | gzip -1'], {
      maxBuffer: 1 << 30,
    });
    repackImage(bomb);
    docker('rmi', envImage);
    dropOracleEntries();
    const bombed = await job('refs/heads/main');
    expect(oracles(bombed)).toEqual({ cached: 0, harvested: total, failed: 0 });
    expect(bombed.stdout).toMatch(/was not used \(it unpacks to more than 64 MB\)/);
    expect(bombed.stdout).toContain(`Building ${envImage}`);
  }, 900_000);

  it("an image over the run's budget is not saved, and the run says how big it was", async () => {
    docker('rmi', envImage);
    dropOracleEntries();
    for (const e of imageEntries()) github.cache.splice(github.cache.indexOf(e), 1);
    const run = await job('refs/heads/main', [], { 'image-cache': '1MB' });
    expect(oracles(run).failed).toBe(0);
    expect(run.stdout).toMatch(
      /Not caching the image of environment "[^"]+" \(\d+ MB\): this run's image-cache budget is 1\.0 MB/,
    );
    expect(imageEntries()).toHaveLength(0);
    expect(oracleEntries()).toHaveLength(1);
  }, 600_000);
});
