/**
 * The Docker engine's availability: a ping before the first job (and a sweep
 * of what a killed run left behind), and a watch while a container runs.
 */
import { hostname } from 'node:os';
import Docker from 'dockerode';
import { DockerUnavailableError, HarvestError } from '../../../errors.js';
import type { ContainerClient } from './container-client.js';
import { alive, sweepTempDirs } from '../temp-dirs.js';

/** Throws DockerUnavailableError unless the engine answers; then removes what killed runs left. */
export async function ensureEngine(
  client: ContainerClient,
  log: (message: string) => void,
  /** The engine the `docker-host` option names (else DOCKER_HOST's, or the local socket). */
  host?: string,
): Promise<void> {
  try {
    await withTimeout(client.ping(), 10_000, 'ping timed out');
  } catch (error) {
    throw new DockerUnavailableError((error as Error).message, remoteHost(host));
  }
  await sweep(client, log);
}

/** The labels that let a later run know a container as this process's. */
export function ownerLabels(): Record<string, string> {
  return { 'tracegate.host': hostname(), 'tracegate.pid': String(process.pid) };
}

/**
 * Removes containers a killed tracegate process left behind (SIGKILL,
 * a lost engine): those labelled with this host whose process is gone.
 */
async function sweep(client: ContainerClient, log: (message: string) => void): Promise<void> {
  const left = await client.listByLabel(`tracegate.host=${hostname()}`);
  let removed = 0;
  for (const info of left) {
    const pid = Number(info.labels['tracegate.pid']);
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    await client
      .remove(info.id)
      .then(() => removed++)
      .catch(() => {});
  }
  if (removed) log(`Removed ${removed} container(s) left by an interrupted run`);
  const dirs = sweepTempDirs();
  if (dirs) log(`Removed ${dirs} temp director(ies) left by an interrupted run`);
}

/**
 * The engine's ping within `ms`, measured in time the process could listen: when the event loop was
 * busy past `ms` (a long synchronous step on a loaded machine), the reply may be waiting unread as the
 * timer fires, so the poll phase gets one turn (setImmediate runs after it) before the ping is called
 * unanswered. A dead engine still fails at once (ENOENT, ECONNREFUSED).
 */
export async function pingWithin(client: ContainerClient, ms: number): Promise<void> {
  let settled = false;
  const ping = client.ping().finally(() => (settled = true));
  ping.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    if ((await Promise.race([ping, late])) !== 'late') return;
  } finally {
    clearTimeout(timer);
  }
  await new Promise((resolve) => setImmediate(resolve));
  if (!settled) throw new HarvestError('no answer');
  await ping;
}

/** Rejects within ~2 intervals of the engine going away (a wait would hang until its timeout). */
export function watchEngine(
  client: ContainerClient,
  every: number,
): { lost: Promise<never>; stop: () => void } {
  let misses = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const lost = new Promise<never>((_, reject) => {
    const tick = () => {
      if (stopped) return;
      pingWithin(client, every).then(
        () => {
          misses = 0;
          timer = setTimeout(tick, every);
        },
        (error: Error) => {
          if (stopped) return;
          if (++misses >= 2)
            reject(
              new DockerUnavailableError(
                `lost the connection to the Docker engine while a harvest container ran: ${error.message}`,
              ),
            );
          else timer = setTimeout(tick, every);
        },
      );
    };
    timer = setTimeout(tick, every);
  });
  lost.catch(() => {});
  return {
    lost,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** True while a process with this pid exists on this host. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HarvestError(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A client of the engine at `host` (the `docker-host` option), read as DOCKER_HOST would be, with
 * TLS material from DOCKER_TLS_VERIFY / DOCKER_CERT_PATH; its failures name it.
 */
export function dockerAt(host: string): Docker {
  const saved = process.env.DOCKER_HOST;
  process.env.DOCKER_HOST = host;
  try {
    return new Docker();
  } finally {
    if (saved === undefined) delete process.env.DOCKER_HOST;
    else process.env.DOCKER_HOST = saved;
  }
}

/** The remote engine DOCKER_HOST names (tcp:// or ssh://), if any: its failures say what to check. */
function remoteHost(named?: string): { host: string; tls: boolean } | undefined {
  const host = named ?? process.env.DOCKER_HOST;
  if (!host || /^(unix|npipe):/.test(host)) return undefined;
  return { host, tls: process.env.DOCKER_TLS_VERIFY === '1' || !!process.env.DOCKER_CERT_PATH };
}
