/**
 * The environment's source as a model's repository tools read it (`context: repo`): copied out of
 * the environment's image through a container that is created and never started (nothing of the
 * environment runs, nothing it would write is seen), then removed.
 */
import { basename } from 'node:path';
import {
  SOURCE_VIEW_FILE_BYTES,
  SOURCE_VIEW_VERSION,
  type SourceView,
} from '../../../contracts/source-view.js';
import { DockerUnavailableError, HarvestError, messageOf } from '../../../errors.js';
import type { Cleanups } from '../../../util/cleanups.js';
import { ArchiveTooLargeError, type ContainerClient } from './container-client.js';
import { ownerLabels } from './engine.js';
import { readTar, type ReadEntry } from './tar-read.js';

/** The largest tree exported: a source tree past it is not one a model reads. */
export const SOURCE_ARCHIVE_BYTES = 256 * 1024 * 1024;

/**
 * What the venv's own `python -m venv` put in site-packages: the installers, not the
 * environment's packages (their `.dist-info` too).
 */
const INSTALLERS = ['pip', 'setuptools', 'pkg_resources', '_distutils_hack', 'wheel'];
const INSTALLER_FILES = new Set([...INSTALLERS, 'distutils-precedence.pth']);
const INSTALLER_DIST = new RegExp(`^(?:${INSTALLERS.join('|')})-[^/]*\\.dist-info$`);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The view of `origin` (a directory) in `image`: its text files, links and what it leaves out
 * and why, every path relative to `origin` and in sorted order (the same image gives the same
 * JSON). A HarvestError when the image has no `origin` or the tree is past SOURCE_ARCHIVE_BYTES.
 */
export async function exportSourceView(
  client: ContainerClient,
  image: string,
  origin: string,
  cleanups?: Cleanups,
): Promise<SourceView> {
  const container = await client.create({
    Image: image,
    // Never run: create wants a command, and an image may name none.
    Cmd: ['true'],
    NetworkDisabled: true,
    Labels: { 'tracegate.export': '1', ...ownerLabels() },
    HostConfig: { NetworkMode: 'none' },
  });
  const forget = cleanups?.add(() => container.remove());
  try {
    // `<dir>/.`: the directory's entries as `./…` (relative to origin already), and an origin
    // that is a link (a workdir may be one) read as the directory it names, not as one link.
    const archive = await container.getArchive(
      `${origin.replace(/\/+$/, '')}/.`,
      SOURCE_ARCHIVE_BYTES,
    );
    return sourceView(origin, readTar(archive));
  } catch (error) {
    if (error instanceof DockerUnavailableError) throw error; // the engine's, not the image's
    throw new HarvestError(
      error instanceof ArchiveTooLargeError
        ? `The source at ${origin} in image ${image} is over ${SOURCE_ARCHIVE_BYTES / 2 ** 20} MiB: ` +
            'too large for the repository tools to read: ask its questions without them.'
        : `Could not export the source at ${origin} from image ${image}: ` +
            ((error as { statusCode?: unknown }).statusCode === 404
              ? 'the image has no directory there.'
              : messageOf(error)),
    );
  } finally {
    await container.remove();
    forget?.();
  }
}

/** The view of an archive's entries (paths relative to `origin`). */
export function sourceView(origin: string, entries: readonly ReadEntry[]): SourceView {
  const sitePackages = basename(origin) === 'site-packages';
  const files = new Map<string, string>();
  const links = new Map<string, string>();
  const omitted = new Map<string, string>();
  for (const entry of entries) {
    if (!entry.path || skipped(entry.path, sitePackages)) continue;
    if (entry.kind === 'link') links.set(entry.path, entry.target ?? '');
    else if (entry.kind === 'other') omitted.set(entry.path, 'not a regular file');
    else if (entry.kind === 'file') {
      const data = entry.data ?? Buffer.alloc(0);
      const text = data.length <= SOURCE_VIEW_FILE_BYTES ? textOf(data) : undefined;
      if (text !== undefined) files.set(entry.path, text);
      else
        omitted.set(
          entry.path,
          data.length > SOURCE_VIEW_FILE_BYTES
            ? `over ${SOURCE_VIEW_FILE_BYTES / 1024} KiB`
            : 'binary',
        );
    }
  }
  return {
    version: SOURCE_VIEW_VERSION,
    origin,
    files: sorted(files),
    links: sorted(links),
    omitted: sorted(omitted),
  };
}

/** Bytecode, and in site-packages the venv's installers; a path that would leave the view. */
function skipped(path: string, sitePackages: boolean): boolean {
  const parts = path.split('/');
  if (parts.includes('__pycache__') || path.endsWith('.pyc') || parts.includes('..')) return true;
  const top = parts[0]!;
  return sitePackages && (INSTALLER_FILES.has(top) || INSTALLER_DIST.test(top));
}

/** The file's text, when it is UTF-8 with no NUL byte (what a source file is); else binary. */
function textOf(data: Buffer): string | undefined {
  if (data.includes(0)) return undefined;
  try {
    return utf8.decode(data);
  } catch {
    return undefined;
  }
}

function sorted(map: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
