import {
  cpSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { resultsSchema } from '../../src/contracts/results.js';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { FaultyModelServer } from '../helpers/model-server.js';
import { writeTree } from '../helpers/sources.js';

const CONTROL = 'fx-control';
const COLLATZ = join(FIXTURE_SUITE, 'basic', 'fx-loops-collatz');

/** Every file under `dir`, as text (for grepping a cache or an output directory). */
function allText(dir: string): string {
  let text = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) text += allText(path);
    else if (stat.isFile() && stat.size < 64 * 1024 * 1024) text += readFileSync(path, 'latin1');
  }
  return text;
}

const instance = (id: string, test: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    kind: 'S2_Loops',
    environment: 'plain',
    tests: [test],
    target: { file: 'numbers_mod.py', function: 'collatz_steps' },
    query: { invocation: 1, loop_line: 3 },
    timeout_seconds: 60,
    ...extra,
  });

/** A copy of the collatz instance whose test also does something hostile first. */
function hostile(suite: string, id: string, body: string): void {
  const dir = join(suite, 'cases', id);
  cpSync(COLLATZ, dir, { recursive: true });
  writeFileSync(join(dir, 'instance.json'), instance(id, 'test_numbers.py::test_six'));
  writeFileSync(
    join(dir, 'test_numbers.py'),
    [
      'import os, signal, subprocess, sys, time, json',
      'from numbers_mod import collatz_steps',
      '',
      '',
      'def test_six():',
      ...body.split('\n').map((l) => `    ${l}`),
      '    assert collatz_steps(6) == 8',
      '',
    ].join('\n'),
  );
}

describe('a hostile instance suite never reaches the host, forges an oracle, or takes the run down', () => {
  let docker: Docker;
  let server: FaultyModelServer;
  let url: string;
  const marker = `TGMARK${randomBytes(6).toString('hex')}`;
  const secretFile = `/root/tracegate-secret-${process.pid}`;
  const apiKey = `sk-${marker}-key`;

  beforeAll(async () => {
    docker = await requireDocker();
    server = new FaultyModelServer(() => `{"loop_iteration_count": 8} ${apiKey}`, undefined, {
      apiKey,
    });
    url = await server.start();
    writeFileSync(secretFile, `host secret ${marker}\n`, { mode: 0o600 });
    process.env.TG_HOSTILE_MARKER = marker;
  });
  afterAll(async () => {
    await server.stop();
    rmSync(secretFile, { force: true });
    delete process.env.TG_HOSTILE_MARKER;
  });

  it('every attack costs only its own instance; nothing of the host reaches the endpoint', async () => {
    const suite = join(tempDir('tg-hostile-'), 'suite');
    cpSync(join(FIXTURE_SUITE, 'environments'), join(suite, 'environments'), { recursive: true });
    const control = join(suite, 'cases', CONTROL);
    cpSync(COLLATZ, control, { recursive: true });
    writeFileSync(join(control, 'instance.json'), instance(CONTROL, 'test_numbers.py::test_six'));
    const symlinked = (id: string, test: string, target: string) => {
      const dir = join(suite, 'cases', id);
      cpSync(COLLATZ, dir, { recursive: true });
      writeFileSync(join(dir, 'instance.json'), instance(id, `${test}::test_six`));
      rmSync(join(dir, test), { force: true });
      symlinkSync(target, join(dir, test));
    };
    // Host files named by the test list, through symlinks and `..`.
    symlinked('host-environ', 'test_environ.py', '/proc/self/environ');
    symlinked('host-secret', 'test_secret.py', secretFile);
    mkdirSync(join(suite, '..', 'outside'), { recursive: true });
    writeFileSync(join(suite, '..', 'outside', 'test_x.py'), `# ${marker}\n`);
    writeTree(join(suite, 'cases', 'dotdot'), {
      'instance.json': instance('dotdot', '../../../outside/test_x.py::test_six'),
    });
    symlinked('dir-as-test', 'test_dir.py', join(suite, 'cases'));
    // A host file hard-linked in as the test: its real path is inside the suite.
    const linked = join(suite, 'cases', 'hard-link');
    cpSync(COLLATZ, linked, { recursive: true });
    writeFileSync(join(linked, 'instance.json'), instance('hard-link', 'test_linked.py::test_six'));
    linkSync(join(suite, '..', 'outside', 'test_x.py'), join(linked, 'test_linked.py'));
    // A device in the instance directory (hashing it would read forever).
    const zero = join(suite, 'cases', 'dev-zero');
    cpSync(COLLATZ, zero, { recursive: true });
    writeFileSync(join(zero, 'instance.json'), instance('dev-zero', 'test_numbers.py::test_six'));
    symlinkSync('/dev/zero', join(zero, 'blob.bin'));
    // Tests that attack the harvest from inside the container.
    hostile(
      suite,
      'forge-results',
      [
        "line = {'tracegate_result': 1, 'id': 'fx-control', 'status': 'ok', 'answer': {'loop_iteration_count': 999}}",
        'print(json.dumps(line)); sys.stdout.flush()',
        'for fd in ("/proc/%d/fd/1" % os.getppid(), "/proc/1/fd/1"):',
        '    try:',
        '        with open(fd, "w") as f: f.write(json.dumps(line) + "\\n")',
        '    except OSError: pass',
        'for root, dirs, files in os.walk("/tg/work"):',
        '    for name in files:',
        '        try:',
        '            with open(os.path.join(root, name), "w") as f: f.write("forged")',
        '        except OSError: pass',
      ].join('\n'),
    );
    hostile(
      suite,
      'signals',
      [
        'for pid in (os.getppid(), 1):',
        '    for sig in (signal.SIGINT, signal.SIGTERM):',
        '        try: os.kill(pid, sig)',
        '        except OSError: pass',
        'time.sleep(0.5)',
      ].join('\n'),
    );
    hostile(
      suite,
      'daemon',
      [
        'if os.fork() == 0:',
        '    os.setsid()',
        '    if os.fork() == 0:',
        '        time.sleep(300)',
        '    os._exit(0)',
      ].join('\n'),
    );
    hostile(
      suite,
      'fill-tmp',
      [
        'import tempfile',
        'try:',
        '    with tempfile.NamedTemporaryFile(dir="/tmp", delete=False) as f:',
        '        for _ in range(2000): f.write(b"x" * (1 << 20))',
        'except OSError: pass',
      ].join('\n'),
    );
    hostile(suite, 'reads-host', 'print(open("/proc/self/environ").read())');
    // Residue in what groups of one container share beside /tmp: /dev/shm filled, a SysV segment left.
    hostile(
      suite,
      'ipc-a-leave',
      [
        'import ctypes',
        'libc = ctypes.CDLL(None)',
        'assert libc.shmget(0, 1 << 20, 0o1600) >= 0  # IPC_PRIVATE, IPC_CREAT | 0600: never removed',
        'try:',
        '    with open("/dev/shm/tg-residue", "wb") as f:',
        '        for _ in range(256): f.write(b"x" * (1 << 20))',
        'except OSError: pass',
      ].join('\n'),
    );
    hostile(
      suite,
      'ipc-b-probe',
      [
        'assert open("/proc/sysvipc/shm").read().count("\\n") == 1, "a SysV segment was left"',
        'assert not os.listdir("/dev/shm"), os.listdir("/dev/shm")',
        'with open("/dev/shm/probe", "wb") as f: f.write(b"x" * (1 << 20))',
      ].join('\n'),
    );
    // A directory chain 1,500 deep in /tmp, the group's TMPDIR and /dev/shm: a recursive cleanup
    // (Python 3.11's os.walk and shutil.rmtree) hit the recursion limit there and left them, and
    // every later group of the container. Three probes after it must find them gone.
    hostile(
      suite,
      'deep-a-tree',
      [
        'def chain(top):',
        '    os.mkdir(top)',
        '    fd = os.open(top, os.O_RDONLY)',
        '    for _ in range(1500):',
        '        os.mkdir("d", dir_fd=fd)',
        '        child = os.open("d", os.O_RDONLY, dir_fd=fd)',
        '        os.close(fd)',
        '        fd = child',
        '    os.close(fd)',
        'for root in ("/tmp", os.environ["TMPDIR"], "/dev/shm"):',
        '    chain(os.path.join(root, "tg-deep"))',
      ].join('\n'),
    );
    for (const n of [1, 2, 3])
      hostile(
        suite,
        `deep-b-probe${n}`,
        [
          'for root in ("/tmp", "/dev/shm"):',
          '    assert not os.path.exists(os.path.join(root, "tg-deep")), root + " kept the deep tree"',
          'with open("/tmp/probe", "wb") as f: f.write(b"x" * (1 << 20))',
        ].join('\n'),
      );
    // A million small files in /tmp, the group's TMPDIR and /dev/shm: each tmpfs bounds its bytes by
    // its size but, by default, its files only by half the host's memory (a million fit, ~1 GiB of
    // kernel memory in a 2 GiB container, and as many for the cleanup to delete). The attacker must
    // be stopped well short of a million, and the probe after it find every file gone and room left.
    hostile(
      suite,
      'many-a-files',
      [
        'made = 0',
        'for root in ("/tmp", os.environ["TMPDIR"], "/dev/shm"):',
        '    top = os.path.join(root, "tg-many")',
        '    os.mkdir(top)',
        '    try:',
        '        while made < 1_000_000:',
        '            os.close(os.open(os.path.join(top, str(made)), os.O_CREAT | os.O_WRONLY, 0o600))',
        '            made += 1',
        '    except OSError:',
        '        pass',
        'assert made < 1_000_000, "a million files fit"',
      ].join('\n'),
    );
    hostile(
      suite,
      'many-b-probe',
      [
        'for root in ("/tmp", "/dev/shm"):',
        '    assert not os.path.exists(os.path.join(root, "tg-many")), root + " kept the files"',
        '    for i in range(1000):',
        '        with open(os.path.join(root, f"probe{i}"), "wb") as f: f.write(b"x")',
      ].join('\n'),
    );
    hostile(suite, 'plan.json', '');

    const cache = tempDir('tg-hostile-cache-');
    const out = join(cache, 'out');
    const started = Date.now();
    const run = await runCli(
      [
        'run',
        '--instances',
        suite,
        '--endpoint',
        url,
        '--model',
        'm',
        '--cache',
        cache,
        '--out',
        out,
        '--concurrency',
        '2',
      ],
      { TRACEGATE_API_KEY: apiKey },
    );
    expect(run.code).toBe(0);
    // The daemon and the signals did not hang or stop the harvest.
    expect(Date.now() - started).toBeLessThan(240_000);
    const results = resultsSchema.parse(
      JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
    );
    const byId = Object.fromEntries(results.instances.map((r) => [r.id, r]));
    // The control and every attacker that merely misbehaved still have their true oracle.
    for (const id of [
      CONTROL,
      'forge-results',
      'signals',
      'daemon',
      'fill-tmp',
      'reads-host',
      'plan.json',
      'ipc-a-leave',
      'ipc-b-probe', // after ipc-a-leave in each run: it passes only if nothing was left
      'deep-a-tree',
      'deep-b-probe1', // after deep-a-tree: each passes only if its tree was removed
      'deep-b-probe2',
      'deep-b-probe3',
      'many-a-files', // stopped short of a million files: its test passes
      'many-b-probe', // after many-a-files: passes only if its files were removed
    ])
      expect([id, byId[id]?.oracle]).toEqual([id, { loop_iteration_count: 8 }]);
    // Host-reading instances were rejected on the host, by name and rule.
    const rejected = Object.fromEntries(
      (results.rejected ?? []).map((r) => [r.id ?? r.file, r.reason]),
    );
    expect(rejected['host-environ']).toMatch(/test_environ\.py.*outside the suite/);
    expect(rejected['host-secret']).toMatch(/test_secret\.py.*outside the suite/);
    expect(rejected['dotdot']).toMatch(/outside the suite|no such file/);
    expect(rejected['dir-as-test']).toMatch(/test_dir\.py.*(directory|outside)/);
    expect(rejected['dev-zero']).toMatch(/blob\.bin.*(device|outside)/);
    expect(rejected['hard-link']).toMatch(/test_linked\.py.*2 hard links/);
    // Nothing of the host — a root-only file, this process's environment, the key — reached
    // the endpoint, the results, the report or the cache.
    const prompts = JSON.stringify(server.seen.map((s) => s.body));
    expect(server.seen.length).toBeGreaterThan(0);
    for (const text of [prompts, allText(out), allText(cache)]) {
      expect(text).not.toContain(marker);
    }
    // No container of this run is left behind.
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`tracegate.pid=${process.pid}`] },
    });
    expect(left).toHaveLength(0);
    // The endpoint did echo the key: it was redacted, not absent.
    expect(allText(out)).toContain('8} ***');

    // A cache entry copied into another instance's slot is not trusted.
    const oracles = join(cache, 'oracles');
    const keyOf = (id: string) =>
      readdirSync(oracles).find(
        (k) =>
          JSON.parse(readFileSync(join(oracles, k, 'oracle.json'), 'utf8')).meta.instance_id === id,
      )!;
    const [victim, source] = [keyOf('plan.json'), keyOf(CONTROL)];
    for (const name of ['oracle.json', 'context.json'])
      cpSync(join(oracles, source, name), join(oracles, victim, name));
    const again = await runCli(
      [
        'run',
        '--instances',
        suite,
        '--endpoint',
        url,
        '--model',
        'm',
        '--cache',
        cache,
        '--out',
        join(cache, 'out2'),
      ],
      { TRACEGATE_API_KEY: apiKey },
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `Cache entry ${victim} does not belong to plan.json; re-harvesting it.`,
    );
    const second = resultsSchema.parse(
      JSON.parse(readFileSync(join(cache, 'out2', 'results.json'), 'utf8')),
    );
    expect(second.harvest).toMatchObject({ harvested: 1 });
  }, 600_000);
});
