/**
 * The container seam, as testcontainers' `ContainerClient`: the only file
 * that imports dockerode. Everything the Docker backend asks of an engine —
 * ping, containers (create, copy in and out, attach, start, wait, kill, remove, list) and
 * images (inspect, pull, build) — goes through `ContainerClient`.
 */
import Docker from 'dockerode';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DockerUnavailableError } from '../../../errors.js';

/** A dockerode client, for a caller that brings its own engine connection. */
export type Dockerode = Docker;
/** A container's settings, as the engine's API names them. */
export type ContainerSpec = Docker.ContainerCreateOptions;
/** A container's host settings (binds, limits, capabilities), as the engine's API names them. */
export type HostConfig = Docker.HostConfig;

/** One created container. */
export interface ContainerHandle {
  /** Unpacks a tar archive at `path` (a volume's mount: the root filesystem is read-only). */
  putArchive(tar: Buffer, path: string): Promise<void>;
  /**
   * A tar archive of `path` in the container (its last name the archive's first; `<dir>/.`: the
   * directory's content, a link to it followed), read whole; rejects past `maxBytes`.
   */
  getArchive(path: string, maxBytes: number): Promise<Buffer>;
  /** Attaches stdout and stderr (no TTY: demultiplexed into the two streams). */
  attach(stdout: Writable, stderr: Writable): Promise<AttachedStreams>;
  start(): Promise<void>;
  /**
   * The exit code; rejects with `onTimeout()` after `timeoutMs`, or as soon
   * as `lost` rejects (a wait on a vanished engine would hang until then).
   */
  wait(timeoutMs: number, onTimeout: () => Error, lost: Promise<never>): Promise<number>;
  /** Kills it; never rejects (it may have exited already). */
  kill(): Promise<void>;
  /** Removes it with its volumes, forcibly; never rejects (it may be gone already). */
  remove(): Promise<void>;
}

export interface AttachedStreams {
  /** Resolves when the attach stream ends (after the container's last output). */
  ended: Promise<void>;
  /** Closes the attach stream. */
  detach(): void;
}

/** A container left on the engine, as listed. */
export interface ListedContainer {
  id: string;
  labels: Record<string, string>;
}

/** The engine ran a build and it failed (a step's error, with the engine's message). */
export class ImageBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageBuildError';
  }
}

/** A container's archive was larger than its reader takes. */
export class ArchiveTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveTooLargeError';
  }
}

export type PullResult = { ok: true } | { ok: false; reason: string };

/** Credentials for a registry, as the engine takes them (from Docker's config or a token). */
export interface RegistryAuth {
  username: string;
  password: string;
  serveraddress: string;
}

/** A `repository:tag` split at the tag's colon (a registry's port colon is not a tag). */
export function splitName(name: string): { repo: string; tag: string } {
  const at = name.lastIndexOf(':');
  return at > name.lastIndexOf('/')
    ? { repo: name.slice(0, at), tag: name.slice(at + 1) }
    : { repo: name, tag: 'latest' };
}

export interface ContainerClient {
  ping(): Promise<void>;
  create(spec: ContainerSpec): Promise<ContainerHandle>;
  /** Containers (running or not) carrying `label` (`key=value`); none when the engine will not say. */
  listByLabel(label: string): Promise<ListedContainer[]>;
  /** Removes a listed container with its volumes; rejects when the engine refuses. */
  remove(id: string): Promise<void>;
  /** The image's id; rejects when the engine does not have it. */
  imageId(ref: string): Promise<string>;
  imageExists(ref: string): Promise<boolean>;
  /** Pulls an image; not ok (with the reason) when no registry answers. */
  pull(ref: string, timeoutMs?: number, auth?: RegistryAuth): Promise<PullResult>;
  /** Gives image `ref` the name `name` (`repository:tag`). */
  tag(ref: string, name: string): Promise<void>;
  /** Pushes `name` (`repository:tag`) to its registry; rejects with the engine's message. */
  push(name: string, auth?: RegistryAuth): Promise<void>;
  /**
   * Builds `tag` from the files `src` of the directory `context`, without
   * network; an ImageBuildError when the build itself fails.
   */
  build(context: string, src: string[], tag: string): Promise<void>;
  /** The image's layers as diff ids, bottom first. */
  imageLayers(ref: string): Promise<string[]>;
  /** Writes the image's archive (`docker save`) to `file`. */
  saveImage(ref: string, file: string): Promise<void>;
  /** Loads an image archive (`docker load`); rejects with the engine's message. */
  loadImage(file: string): Promise<void>;
}

/** The engine at DOCKER_HOST or the local socket (or the dockerode client given). */
export class DockerodeClient implements ContainerClient {
  private readonly docker: Docker;

  constructor(docker?: Docker) {
    this.docker = docker ?? new Docker();
  }

  async ping(): Promise<void> {
    await this.docker.ping();
  }

  async create(spec: ContainerSpec): Promise<ContainerHandle> {
    return new DockerodeContainer(await engine(() => this.docker.createContainer(spec)));
  }

  async listByLabel(label: string): Promise<ListedContainer[]> {
    const listed = await this.docker
      .listContainers({ all: true, filters: { label: [label] } })
      .catch(() => []);
    return listed.map((info) => ({ id: info.Id, labels: info.Labels ?? {} }));
  }

  async remove(id: string): Promise<void> {
    await this.docker.getContainer(id).remove({ force: true, v: true });
  }

  async imageId(ref: string): Promise<string> {
    const { Id } = await this.docker.getImage(ref).inspect();
    return Id;
  }

  async imageExists(ref: string): Promise<boolean> {
    try {
      await this.docker.getImage(ref).inspect();
      return true;
    } catch {
      return false;
    }
  }

  async tag(ref: string, name: string): Promise<void> {
    await this.docker.getImage(ref).tag(splitName(name));
  }

  async push(name: string, auth?: RegistryAuth): Promise<void> {
    const { repo, tag } = splitName(name);
    const stream = await this.docker
      .getImage(repo)
      .push({ tag, ...(auth ? { authconfig: auth } : {}) });
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(stream, (error: Error | null, output: unknown[]) => {
        // A refused push is a progress message with `error`, not a failed stream.
        const refused = (output ?? []).find(
          (m): m is { error: string } => typeof (m as { error?: unknown })?.error === 'string',
        );
        if (error || refused) reject(error ?? new Error(refused!.error));
        else resolve();
      });
    });
  }

  async pull(ref: string, timeoutMs = 120_000, auth?: RegistryAuth): Promise<PullResult> {
    try {
      const stream = await this.docker.pull(ref, auth ? { authconfig: auth } : {});
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no answer in ${timeoutMs / 1000}s`)),
          timeoutMs,
        );
        this.docker.modem.followProgress(stream, (error: Error | null) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        });
      });
      return { ok: true };
    } catch (error) {
      // The engine's message ends with the cause ("…: no such host"); the URL before it is noise.
      const message = (error as Error).message
        .split('\n')[0]!
        .replace(/^\(HTTP code \d+\) [\w ]+ - /, '')
        .trim();
      return { ok: false, reason: message.split(': ').at(-1) || message };
    }
  }

  async build(context: string, src: string[], tag: string): Promise<void> {
    const stream = await this.docker.buildImage(
      { context, src },
      { t: tag, networkmode: 'none', rm: true, forcerm: true },
    );
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(
        stream,
        (error: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
          const failed = output?.find((o) => o.error);
          if (error || failed)
            reject(
              new ImageBuildError(
                String(error?.message ?? failed?.errorDetail?.message ?? failed?.error),
              ),
            );
          else resolve();
        },
      );
    });
  }

  async imageLayers(ref: string): Promise<string[]> {
    const { RootFS } = await this.docker.getImage(ref).inspect();
    return RootFS?.Layers ?? [];
  }

  async saveImage(ref: string, file: string): Promise<void> {
    const stream = await this.docker.getImage(ref).get();
    await pipeline(stream, createWriteStream(file));
  }

  async loadImage(file: string): Promise<void> {
    const stream = await this.docker.loadImage(createReadStream(file), { quiet: true });
    await followed(this.docker, stream);
  }
}

/** Waits for an engine's progress stream; rejects with the first error it reports. */
function followed(docker: Docker, stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
        const failed = output?.find((o) => o.error);
        if (error || failed)
          reject(
            new Error(String(error?.message ?? failed?.errorDetail?.message ?? failed?.error)),
          );
        else resolve();
      },
    );
  });
}

class DockerodeContainer implements ContainerHandle {
  constructor(private readonly container: Docker.Container) {}

  async putArchive(tar: Buffer, path: string): Promise<void> {
    await engine(() => this.container.putArchive(tar, { path }));
  }

  async getArchive(path: string, maxBytes: number): Promise<Buffer> {
    const stream = await engine(() => this.container.getArchive({ path }));
    const chunks: Buffer[] = [];
    let size = 0;
    await engine(async () => {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        // Stopped here (the loop's exit destroys the stream), not after: the engine would send
        // the whole tree, gigabytes maybe, into memory.
        if (size > maxBytes) break;
        chunks.push(chunk);
      }
    });
    if (size > maxBytes)
      throw new ArchiveTooLargeError(`the archive of ${path} is over ${maxBytes} bytes`);
    return Buffer.concat(chunks, size);
  }

  async attach(stdout: Writable, stderr: Writable): Promise<AttachedStreams> {
    const stream = await engine(() =>
      this.container.attach({ stream: true, stdout: true, stderr: true }),
    );
    this.container.modem.demuxStream(stream, stdout, stderr);
    return {
      ended: new Promise<void>((resolve) => stream.on('end', resolve)),
      detach: () => (stream as { destroy?: () => void }).destroy?.(),
    };
  }

  async start(): Promise<void> {
    await engine(() => this.container.start());
  }

  async wait(timeoutMs: number, onTimeout: () => Error, lost: Promise<never>): Promise<number> {
    // One timer, cleared whichever way the race ends (a pending timer would keep
    // the process alive after a lost engine).
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), timeoutMs);
    });
    try {
      const result = (await Promise.race([engine(() => this.container.wait()), timeout, lost])) as {
        StatusCode: number;
      };
      return result.StatusCode;
    } finally {
      clearTimeout(timer);
    }
  }

  async kill(): Promise<void> {
    await this.container.kill().catch(() => {});
  }

  async remove(): Promise<void> {
    await this.container.remove({ force: true, v: true }).catch(() => {});
  }
}

const ENGINE_GONE = /ECONNREFUSED|ENOENT|EPIPE|ECONNRESET|socket hang up|connect E/i;

/** An engine call; a lost connection becomes DockerUnavailableError, not a raw socket error. */
async function engine<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (ENGINE_GONE.test(message) || ENGINE_GONE.test(String((error as { code?: string }).code)))
      throw new DockerUnavailableError(`lost the connection to the Docker engine (${message})`);
    throw error;
  }
}
