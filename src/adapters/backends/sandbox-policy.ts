import type { ContainerSpec, HostConfig } from './docker/container-client.js';

/** Where the tracer, the plan, the instances and the scratch space appear in a harvest container. */
export const MOUNT = {
  tracer: '/tg/tracer',
  plan: '/tg/plan',
  instances: '/tg/instances',
  work: '/tg/work',
} as const;

/** First uid of the per-group test users (the driver setuid()s each group's tests to its own). */
export const TEST_UID_BASE = 20000;

export interface SandboxLimits {
  memoryBytes: number;
  pids: number;
  /** Size of /tmp and of the work tmpfs. */
  tmpfsSize: string;
  /**
   * Files (inodes) each of /tmp, the work tmpfs and /dev/shm may hold. A tmpfs bounds its bytes by
   * `size` but its files only by half the host's memory pages by default: a test creating a million
   * empty files charged ~1 GiB of kernel memory to the container and left its cleanup that many to
   * delete (docs/reliability.md). Past the bound, creating a file is "No space left on device".
   */
  tmpfsInodes: number;
  /** Size of /dev/shm (Docker's default, stated here so that its file bound can be set beside it). */
  shmSize: string;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 2 * 1024 ** 3,
  pids: 512,
  tmpfsSize: '512m',
  tmpfsInodes: 131_072,
  shmSize: '64m',
};

/**
 * The sandbox every harvest container runs in (and the tracer's own
 * container tests use): no network, a read-only root, every capability
 * dropped except what the driver needs to run each group's tests as their
 * own uid, clean up after them and kill what they leave behind; no new
 * privileges; memory, pids and scratch space bounded. The tests themselves
 * run unprivileged (uid ≥ TEST_UID_BASE) with no capabilities at all.
 */
export function sandboxHostConfig(
  /** Host paths bound in: none for a harvest (its files come through the API); the tracer's own tests use them. */
  binds: string[],
  limits: SandboxLimits = DEFAULT_LIMITS,
  volumes: readonly string[] = [],
): HostConfig {
  return {
    Binds: binds,
    ...(volumes.length
      ? {
          Mounts: volumes.map((target) => ({
            Type: 'volume' as const,
            Source: '',
            Target: target,
          })),
        }
      : {}),
    NetworkMode: 'none',
    CapDrop: ['ALL'],
    CapAdd: ['SETUID', 'SETGID', 'CHOWN', 'FOWNER', 'DAC_OVERRIDE', 'KILL'],
    SecurityOpt: ['no-new-privileges'],
    ReadonlyRootfs: true,
    Tmpfs: {
      '/tmp': `rw,exec,nosuid,nodev,size=${limits.tmpfsSize},nr_inodes=${limits.tmpfsInodes}`,
      [MOUNT.work]: `rw,exec,nosuid,nodev,size=${limits.tmpfsSize},nr_inodes=${limits.tmpfsInodes}`,
      '/dev/shm': `rw,noexec,nosuid,nodev,size=${limits.shmSize},nr_inodes=${limits.tmpfsInodes}`,
    },
    Memory: limits.memoryBytes,
    MemorySwap: limits.memoryBytes,
    PidsLimit: limits.pids,
  };
}

/** The container settings around the host config: root driver, no network, no TTY. */
export function sandboxContainer(
  image: string,
  cmd: string[],
  hostConfig: HostConfig,
  labels: Record<string, string>,
): ContainerSpec {
  return {
    Image: image,
    Cmd: cmd,
    User: '0:0',
    WorkingDir: '/tmp',
    Env: ['PYTHONDONTWRITEBYTECODE=1', 'HOME=/tmp', 'PYTHONHASHSEED=0', 'LANG=C.UTF-8'],
    Tty: false,
    OpenStdin: false,
    Labels: labels,
    NetworkDisabled: true,
    HostConfig: hostConfig,
  };
}
