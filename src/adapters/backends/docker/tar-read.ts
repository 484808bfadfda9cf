/**
 * Reading tar archives as the engine writes them (Go's archive/tar: ustar, with pax records for
 * long names) and as others do (GNU long-name headers): one header walker for the image archives
 * `docker save` writes (read from a file, content skipped by offset) and the archives of a
 * container's paths (read whole from a buffer).
 */

export const BLOCK = 512;

/** One entry's header as the engine's tar reader resolves it, and where its blocks are. */
export interface TarHeader {
  /** The name as the engine resolves it (pax path, GNU long name, ustar prefix), normal(). */
  name: string;
  /** '0' a regular file, '5' a directory, '2' a symlink, '1' a hard link, … */
  type: string;
  /** A link's target as stored (pax linkpath, GNU long link name, or the header's own). */
  linkName: string;
  /** First block of the entry, its meta headers included. */
  start: number;
  /** Offset of its content. */
  data: number;
  size: number;
  /** Offset just past its last (padded) block. */
  end: number;
}

/** The archive ends before an entry does, or a header is not one. */
export class TarReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarReadError';
  }
}

/** Up to `length` bytes of the archive at `offset` (fewer where it ends). */
export type ReadAt = (offset: number, length: number) => Buffer;

/** Walks the archive's headers to its end-of-archive block; content is left where it is. */
export function tarHeaders(read: ReadAt): TarHeader[] {
  const out: TarHeader[] = [];
  let at = 0;
  let start = 0;
  // What the meta headers before an entry say about it: they apply to the next entry only.
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    const header = read(at, BLOCK);
    if (header.length < BLOCK) throw new TarReadError('truncated');
    if (header.every((b) => b === 0)) return out;
    const size = octal(header.subarray(124, 136));
    if (!Number.isSafeInteger(size) || size < 0) throw new TarReadError(`bad size at ${at}`);
    const type = String.fromCharCode(header[156]!);
    const data = at + BLOCK;
    const end = data + Math.ceil(size / BLOCK) * BLOCK;
    const body = () => {
      const bytes = read(data, size);
      if (bytes.length < size) throw new TarReadError('truncated');
      return bytes;
    };
    if (type === 'L') longName = cString(body());
    else if (type === 'K') longLink = cString(body());
    else if (type === 'x') {
      const records = paxRecords(body());
      longName = records.get('path') ?? longName;
      longLink = records.get('linkpath') ?? longLink;
    } else if (type !== 'g') {
      const prefix =
        header.subarray(257, 262).toString() === 'ustar' ? cString(header.subarray(345, 500)) : '';
      const own = cString(header.subarray(0, 100));
      const name = longName ?? (prefix ? `${prefix}/${own}` : own);
      const linkName = longLink ?? cString(header.subarray(157, 257));
      out.push({
        name: normal(name),
        type: type === '\0' ? '0' : type,
        linkName,
        start,
        data,
        size,
        end,
      });
      longName = longLink = undefined;
    }
    // A global header belongs to no entry: the next one starts after it.
    if (type !== 'L' && type !== 'K' && type !== 'x') start = end;
    at = end;
  }
}

/** A numeric field: octal text, or base-256 when its first bit is set (a size past 8 GiB). */
export function octal(field: Buffer): number {
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f;
    for (const b of field.subarray(1)) n = n * 256 + b;
    return n;
  }
  const text = cString(field).trim();
  return text ? parseInt(text, 8) : 0;
}

/** A NUL-terminated (or field-filling) UTF-8 string. */
export function cString(bytes: Buffer): string {
  const nul = bytes.indexOf(0);
  return bytes.subarray(0, nul < 0 ? bytes.length : nul).toString('utf8');
}

/**
 * A pax header's records (`<length> <key>=<value>\n`, the length counting the whole record in
 * bytes, so a value may hold a newline); a later record of a key wins, a malformed one ends them.
 */
export function paxRecords(body: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  for (let at = 0; at < body.length;) {
    const space = body.indexOf(0x20, at);
    const length = space > at ? Number(body.subarray(at, space).toString('ascii')) : NaN;
    if (!Number.isInteger(length) || length <= space - at || at + length > body.length) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/** As the engine resolves an archive's file names: `./a//b/` is `a/b`. */
export function normal(name: string): string {
  return name
    .split('/')
    .filter((part) => part && part !== '.')
    .join('/');
}

/** One entry of an archive read whole: its content, or where its link points. */
export interface ReadEntry {
  path: string;
  kind: 'file' | 'dir' | 'link' | 'other';
  /** A file's bytes (a hard link's: those of the earlier file it names). */
  data?: Buffer;
  /** A symbolic link's target as stored; a hard link's (kind `other`) when it names no earlier file. */
  target?: string;
}

/**
 * The entries of the tar archive `archive`, in its order, named as the engine resolves them. A
 * hard link to a file earlier in the archive reads as that file (as extracting it would give);
 * devices, pipes and dangling hard links are `other`.
 */
export function readTar(archive: Buffer): ReadEntry[] {
  const read: ReadAt = (offset, length) => archive.subarray(offset, offset + length);
  const files = new Map<string, Buffer>();
  return tarHeaders(read).map((h): ReadEntry => {
    if (h.type === '0' || h.type === '7') {
      const data = read(h.data, h.size);
      files.set(h.name, data);
      return { path: h.name, kind: 'file', data };
    }
    if (h.type === '5') return { path: h.name, kind: 'dir' };
    if (h.type === '2') return { path: h.name, kind: 'link', target: h.linkName };
    const linked = h.type === '1' ? files.get(normal(h.linkName)) : undefined;
    if (linked) {
      files.set(h.name, linked);
      return { path: h.name, kind: 'file', data: linked };
    }
    return { path: h.name, kind: 'other', ...(h.type === '1' ? { target: h.linkName } : {}) };
  });
}
