// The files a harvest container needs (tracer, plan, instance directories), as a tar archive the
// engine unpacks into the container through its API: no path of this machine is mounted, so a
// remote engine gets them the same way as the local one. Every entry is root's, writable by root
// only (the tests run as other uids and can read, never change, what they are given).
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of the archive: a directory, a file (its bytes) or a symbolic link. */
export interface TarEntry {
  path: string;
  mode: number;
  kind: 'dir' | 'file' | 'link';
  data?: Buffer;
  target?: string;
}

/** Names skipped when a directory is read: bytecode the container compiles itself. */
const SKIPPED = new Set(['__pycache__', '.pytest_cache']);

/**
 * The entries of directory `root` under `prefix` (its subdirectories first-level order by name),
 * group and other write bits cleared; symbolic links kept as links (they resolve inside the
 * container, as they did through a bind mount).
 */
export function dirEntries(root: string, prefix: string): TarEntry[] {
  const out: TarEntry[] = [{ path: prefix, mode: 0o755, kind: 'dir' }];
  for (const name of readdirSync(root).sort()) {
    if (SKIPPED.has(name)) continue;
    const full = join(root, name);
    const path = `${prefix}/${name}`;
    const stat = lstatSync(full);
    const mode = stat.mode & 0o755;
    if (stat.isSymbolicLink())
      out.push({ path, mode: 0o777, kind: 'link', target: readlinkSync(full) });
    else if (stat.isDirectory()) out.push(...dirEntries(full, path));
    else if (stat.isFile()) out.push({ path, mode, kind: 'file', data: readFileSync(full) });
  }
  return out;
}

/** A POSIX ustar archive of the entries, owned by root (uid and gid 0), in their order. */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = e.kind === 'file' ? (e.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
    blocks.push(header(e, data.length));
    if (data.length) {
      blocks.push(data);
      const pad = (512 - (data.length % 512)) % 512;
      if (pad) blocks.push(Buffer.alloc(pad));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function header(e: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(512);
  const path = e.kind === 'dir' ? `${e.path.replace(/\/+$/, '')}/` : e.path;
  const { name, prefix } = splitPath(path);
  h.write(name, 0, 100, 'utf8');
  octal(h, e.mode, 100, 8);
  octal(h, 0, 108, 8); // uid
  octal(h, 0, 116, 8); // gid
  octal(h, size, 124, 12);
  octal(h, 0, 136, 12); // mtime: a fixed time, so the same files give the same archive
  h.fill(' ', 148, 156); // checksum field counts as spaces while summed
  h.write(e.kind === 'dir' ? '5' : e.kind === 'link' ? '2' : '0', 156, 1, 'ascii');
  if (e.kind === 'link') {
    if (Buffer.byteLength(e.target!) > 100)
      throw new Error(`the link ${e.path} points at a path longer than 100 bytes`);
    h.write(e.target!, 157, 100, 'utf8');
  }
  h.write('ustar\u0000', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write('root', 265, 32, 'ascii');
  h.write('root', 297, 32, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'ascii');
  return h;
}

/** ustar's 100-byte name and 155-byte prefix, split at a slash; a longer path is refused. */
function splitPath(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name)
      return { name, prefix };
  }
  throw new Error(`the path ${path} is too long for the archive (at most 255 bytes)`);
}

function octal(h: Buffer, value: number, at: number, width: number): void {
  h.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, at, width, 'ascii');
}
