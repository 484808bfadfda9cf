import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_SUITE, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { freePort } from '../helpers/free-port.js';
import { cachedOracles } from '../helpers/cached-oracles.js';

const openssl = (dir: string, ...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });

/** A CA, a server certificate for 127.0.0.1 and a client certificate, as the Docker docs lay them out. */
function certificates(dir: string): void {
  mkdirSync(dir, { recursive: true });
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=tg-ca',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
  );
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName = IP:127.0.0.1\nextendedKeyUsage = serverAuth\n',
  );
  writeFileSync(join(dir, 'client.ext'), 'extendedKeyUsage = clientAuth\n');
  for (const who of ['server', 'client']) {
    openssl(
      dir,
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=tg-${who}`,
      '-keyout',
      `${who}-key.pem`,
      '-out',
      `${who}.csr`,
    );
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${who}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${who}.ext`,
      '-out',
      `${who}-cert.pem`,
    );
  }
}

/** DOCKER_CERT_PATH's layout: ca.pem, cert.pem, key.pem. */
function clientDir(from: string, to: string, ca = from): string {
  mkdirSync(to, { recursive: true });
  writeFileSync(join(to, 'ca.pem'), readFileSync(join(ca, 'ca.pem')));
  writeFileSync(join(to, 'cert.pem'), readFileSync(join(from, 'client-cert.pem')));
  writeFileSync(join(to, 'key.pem'), readFileSync(join(from, 'client-key.pem')));
  return to;
}

/**
 * A remote engine: a second dockerd listening on a loopback TCP port with TLS (certificates made
 * here by openssl), reached through DOCKER_HOST / DOCKER_TLS_VERIFY / DOCKER_CERT_PATH as the
 * Docker CLI reads them. The harvest's files reach its containers through the API (nothing of
 * this machine is mounted), and the oracles are the local engine's; a client certificate from
 * another CA is refused with a message that says what to check.
 */
/** Docker's TLS flags for the server's or the client's certificate, both signed by certs/ca.pem. */
const tls = (certs: string, side: 'server' | 'client'): string[] => [
  '--tlsverify',
  '--tlscacert',
  join(certs, 'ca.pem'),
  '--tlscert',
  join(certs, `${side}-cert.pem`),
  '--tlskey',
  join(certs, `${side}-key.pem`),
];

describe('a remote engine over TLS', () => {
  const work = tempDir('tg-remote-');
  const certs = join(work, 'certs');
  let daemon: ChildProcess | undefined;
  let host = '';
  // The second engine's own data root (a short path: its sockets live under it), removed after.
  let root = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    await requireDocker();
    certificates(certs);
    const port = await freePort();
    host = `tcp://127.0.0.1:${port}`;
    root = join('/tmp', `tg-dockerd-${port}`);
    daemon = spawn(
      'dockerd',
      [
        '--data-root',
        join(root, 'data'),
        '--exec-root',
        join(root, 'exec'),
        '--pidfile',
        join(root, 'docker.pid'),
        '--iptables=false',
        '--bridge=none',
        '-H',
        host,
        ...tls(certs, 'server'),
      ],
      { stdio: 'ignore' },
    );
    const cli = ['-H', host, ...tls(certs, 'client')];
    for (let i = 0; i < 150; i++) {
      try {
        execFileSync('docker', [...cli, 'version'], { stdio: 'ignore' });
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // The remote engine has no image yet: the base goes over as `docker save | docker load` would.
    execFileSync(
      'sh',
      ['-c', `docker save tracegate/base:bookworm | docker ${cli.join(' ')} load`],
      {
        stdio: 'ignore',
      },
    );
  }, 180_000);
  afterAll(async () => {
    process.env = saved;
    if (daemon && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon!.once('exit', resolve));
      daemon.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
    }
    // Its image layers (~300 MB) would otherwise stay in /tmp after every run.
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  const harvest = (cache: string, env: Record<string, string | undefined>, ...extra: string[]) => {
    process.env = { ...saved, ...env };
    return runCli([
      'harvest',
      '--instances',
      FIXTURE_SUITE,
      '--ids',
      'fx-loops-collatz,fx-cfg-classify',
      '--cache',
      join(work, cache),
      ...extra,
    ]).finally(() => (process.env = saved));
  };

  const oracles = (cache: string) => cachedOracles(join(work, cache));

  it('harvests through it the oracles the local engine gives, and refuses a wrong certificate clearly', async () => {
    const local = await harvest('local', {});
    expect(local.code).toBe(0);
    const remote = await harvest('remote', {
      DOCKER_HOST: host,
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: clientDir(certs, join(work, 'client')),
    });
    expect(remote.stderr).not.toMatch(/No Docker engine|did not answer/);
    expect(remote.code).toBe(0);
    expect(oracles('remote')).toHaveLength(2);
    expect(oracles('remote')).toEqual(oracles('local'));
    // The environment image was built on the remote engine, not copied from the local one.
    expect(remote.stderr).toMatch(/Building tracegate-env:/);
    // The same engine named by the option instead of DOCKER_HOST (TLS material still from the
    // environment, as the Docker CLI reads it).
    const byOption = await harvest(
      'option',
      {
        DOCKER_HOST: 'unix:///nonexistent.sock',
        DOCKER_TLS_VERIFY: '1',
        DOCKER_CERT_PATH: join(work, 'client'),
      },
      '--docker-host',
      host,
    );
    expect(byOption.code).toBe(0);
    expect(oracles('option')).toEqual(oracles('local'));

    // A client certificate of another CA: the engine refuses the connection, and the error says
    // which engine and what to check.
    const other = join(work, 'other');
    certificates(other);
    const refused = await harvest('refused', {
      DOCKER_HOST: host,
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: clientDir(other, join(work, 'other-client'), certs),
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`The Docker engine at DOCKER_HOST=${host} did not answer`);
    expect(refused.stderr).toContain('DOCKER_CERT_PATH holds ca.pem');
  }, 600_000);
});
