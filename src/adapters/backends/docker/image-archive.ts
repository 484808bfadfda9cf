/**
 * Image archives as `docker save` writes them, read and trimmed without an
 * engine: what an archive would tag when loaded (checked before it is), and
 * an environment image's archive without the layers of its base (the base is
 * on the runner already, and the engine skips a layer it has).
 */
import { closeSync, openSync, readSync, writeSync, type PathLike } from 'node:fs';
import { BLOCK, normal, tarHeaders, TarReadError, type TarHeader } from './tar-read.js';

export class ImageArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageArchiveError';
  }
}

/** The tar file's headers (content skipped by offset). */
function entries(fd: number): TarHeader[] {
  try {
    return tarHeaders((offset, length) => {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, offset));
    });
  } catch (error) {
    if (error instanceof TarReadError) throw new ImageArchiveError(error.message);
    throw error;
  }
}

function readJson(fd: number, entry: TarHeader): unknown {
  const body = Buffer.alloc(entry.size);
  readSync(fd, body, 0, entry.size, entry.data);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ImageArchiveError(`${entry.name} is not JSON`);
  }
}

interface ManifestItem {
  Config?: unknown;
  RepoTags?: unknown;
  Layers?: unknown;
}

/** The files of an archive that decide what loading it tags: each at most once, a regular file. */
const CONTROL = ['manifest.json', 'repositories', 'index.json'];

function controlFiles(all: TarHeader[]): Map<string, TarHeader> {
  const found = new Map<string, TarHeader>();
  for (const entry of all) {
    if (!CONTROL.includes(entry.name)) continue;
    if (found.has(entry.name)) throw new ImageArchiveError(`${entry.name} appears twice`);
    if (entry.type !== '0') throw new ImageArchiveError(`${entry.name} is not a regular file`);
    found.set(entry.name, entry);
  }
  return found;
}

/**
 * Throws unless loading the archive tags exactly `tag` and nothing else:
 * one image in manifest.json, tagged `tag`; a legacy `repositories` and an
 * OCI index (when present) naming no other. An archive from elsewhere could
 * otherwise retag the base image, or another environment's.
 */
export function checkImageArchive(file: PathLike, tag: string): void {
  const fd = openSync(file, 'r');
  try {
    const control = controlFiles(entries(fd));
    const manifest = control.get('manifest.json');
    if (!manifest) throw new ImageArchiveError('it has no manifest.json');
    const items = readJson(fd, manifest) as ManifestItem[];
    if (!Array.isArray(items) || items.length !== 1)
      throw new ImageArchiveError('its manifest.json does not list exactly one image');
    const tags = items[0]!.RepoTags;
    if (!Array.isArray(tags) || tags.length !== 1 || tags[0] !== tag)
      throw new ImageArchiveError(`it tags ${JSON.stringify(tags)}, not ${JSON.stringify([tag])}`);
    const [repo, version] = splitTag(tag);
    const repositories = control.get('repositories');
    if (repositories) {
      const named = readJson(fd, repositories) as Record<string, Record<string, unknown>>;
      const pairs = Object.entries(named ?? {}).flatMap(([r, byTag]) =>
        Object.keys(byTag ?? {}).map((t) => `${r}:${t}`),
      );
      if (pairs.some((p) => p !== `${repo}:${version}`))
        throw new ImageArchiveError(`its repositories file tags ${pairs.join(', ')}`);
    }
    const index = control.get('index.json');
    if (index) {
      const { manifests } = readJson(fd, index) as {
        manifests?: { annotations?: Record<string, string> }[];
      };
      for (const m of manifests ?? []) {
        const name = m.annotations?.['io.containerd.image.name'];
        const ref = m.annotations?.['org.opencontainers.image.ref.name'];
        if (
          (name !== undefined && name !== tag && name !== `docker.io/library/${tag}`) ||
          (ref !== undefined && ref !== version && ref !== tag)
        )
          throw new ImageArchiveError(`its index.json names ${name ?? ref}`);
      }
    }
  } finally {
    closeSync(fd);
  }
}

function splitTag(tag: string): [string, string] {
  const colon = tag.lastIndexOf(':');
  return colon > tag.lastIndexOf('/')
    ? [tag.slice(0, colon), tag.slice(colon + 1)]
    : [tag, 'latest'];
}

/**
 * Copies the archive `from` to `to` without the layer files of `baseDiffIds`
 * (the base's layers, bottom first) when the image's own layers start with
 * them; returns how many layers were left out (0: the image is not on that base).
 */
export function withoutBaseLayers(from: PathLike, to: PathLike, baseDiffIds: string[]): number {
  const fd = openSync(from, 'r');
  try {
    const all = entries(fd);
    const manifest = controlFiles(all).get('manifest.json');
    if (!manifest) throw new ImageArchiveError('it has no manifest.json');
    const [item] = readJson(fd, manifest) as ManifestItem[];
    const config = all.find((e) => e.name === normal(String(item?.Config)));
    const layers = Array.isArray(item?.Layers) ? (item.Layers as string[]).map(normal) : [];
    const diffIds = config
      ? ((readJson(fd, config) as { rootfs?: { diff_ids?: string[] } }).rootfs?.diff_ids ?? [])
      : [];
    const onBase =
      baseDiffIds.length > 0 &&
      baseDiffIds.length < layers.length &&
      baseDiffIds.every((id, i) => diffIds[i] === id);
    const drop = new Set(onBase ? layers.slice(0, baseDiffIds.length) : []);
    // A layer the image lists twice (an empty one above the base) stays in.
    for (const name of layers.slice(baseDiffIds.length)) drop.delete(name);
    const out = openSync(to, 'w');
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (const entry of all) {
        if (drop.has(entry.name)) continue;
        for (let at = entry.start; at < entry.end;) {
          const n = readSync(fd, buffer, 0, Math.min(buffer.length, entry.end - at), at);
          if (n <= 0) throw new ImageArchiveError('truncated');
          writeSync(out, buffer, 0, n);
          at += n;
        }
      }
      writeSync(out, Buffer.alloc(BLOCK * 2));
    } finally {
      closeSync(out);
    }
    return onBase ? drop.size : 0;
  } finally {
    closeSync(fd);
  }
}
