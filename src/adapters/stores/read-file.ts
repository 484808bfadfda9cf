import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** A file the host would not read: what it is instead, or how much too large. */
export class UnreadableFileError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
    this.name = 'UnreadableFileError';
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

export interface ReadOptions {
  /** Largest size read; a larger file is refused, naming both sizes. */
  maxBytes: number;
  /**
   * Follow a symbolic link at `path` (a path the user typed), or refuse it
   * (a file of a directory restored from elsewhere: a cache, a history).
   */
  follow: boolean;
  /**
   * Refuse a file with another name (a hard link): its real path may be one
   * place while its bytes are another's (a host file linked into a suite).
   */
  singleLink?: boolean;
}

/**
 * `path`'s text (UTF-8) if it is a regular file of at most `maxBytes`;
 * otherwise UnreadableFileError saying what it is. Opened non-blocking (a
 * named pipe never hangs the run) and checked on the open descriptor (what
 * is read is what was checked); a file that grows past the bound while read
 * is refused. ENOENT and other errors of the open propagate as they are.
 */
export function readRegularFile(path: string, options: ReadOptions): string {
  return readRegularBytes(path, options).toString('utf8');
}

/** readRegularFile's bytes, undecoded. */
export function readRegularBytes(path: string, options: ReadOptions): Buffer {
  const { fd, stats } = openRegular(path, options.follow);
  try {
    if (options.singleLink && stats.nlink > 1)
      throw new UnreadableFileError(
        path,
        `is a file with ${stats.nlink} hard links (another name of it may be elsewhere: copy it in instead of linking it)`,
      );
    if (stats.size > options.maxBytes)
      throw new UnreadableFileError(
        path,
        `is ${stats.size} bytes, over the ${options.maxBytes} read at most`,
      );
    // One byte more than it holds: reading it means the file grew after it was checked.
    const buffer = Buffer.alloc(stats.size + 1);
    const size = readAt(fd, buffer, 0);
    if (size > stats.size) throw new UnreadableFileError(path, 'grew while it was read');
    return buffer.subarray(0, size);
  } finally {
    closeSync(fd);
  }
}

/**
 * The `length` bytes at `offset` of `path` (a line of a log, where an index
 * says it is), opened and checked as readRegularBytes does, a link never
 * followed; undefined when the file is gone, is not a regular file, or ends
 * before them.
 */
export function readRegularRange(path: string, offset: number, length: number): Buffer | undefined {
  let fd: number;
  try {
    ({ fd } = openRegular(path, false));
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(length);
    return readAt(fd, buffer, offset) === length ? buffer : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Each complete line of `path` (a regular file of at most `maxBytes`, a link never followed),
 * handed to `onLine` as its first `head` bytes, its offset and its length without the newline;
 * a last line with no newline is torn and skipped. Read `chunkBytes` at a time, so memory stays
 * bounded by the chunk however large the file (a gigabyte log is indexed in 8 MiB steps).
 */
export function scanLines(
  path: string,
  options: { maxBytes: number; head: number; chunkBytes?: number },
  onLine: (head: Buffer, offset: number, length: number) => void,
): void {
  const { fd, stats } = openRegular(path, false);
  try {
    if (stats.size > options.maxBytes)
      throw new UnreadableFileError(
        path,
        `is ${stats.size} bytes, over the ${options.maxBytes} read at most`,
      );
    const chunk = Buffer.alloc(options.chunkBytes ?? 8 * 1024 * 1024);
    let head: Buffer[] = [];
    let headBytes = 0;
    let lineStart = 0;
    for (let base = 0; base < stats.size;) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, stats.size - base), base);
      if (n <= 0) break;
      for (let at = 0; at < n;) {
        const end = chunk.indexOf(0x0a, at);
        const stop = end < 0 || end >= n ? n : end;
        if (headBytes < options.head) {
          const piece = chunk.subarray(at, Math.min(stop, at + options.head - headBytes));
          head.push(Buffer.from(piece));
          headBytes += piece.length;
        }
        if (stop === n) break;
        onLine(Buffer.concat(head), lineStart, base + stop - lineStart);
        head = [];
        headBytes = 0;
        lineStart = base + stop + 1;
        at = stop + 1;
      }
      base += n;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * `path` opened for reading, non-blocking (a named pipe never hangs the run),
 * if it is a regular file (checked on the descriptor: what is read is what
 * was checked); else UnreadableFileError saying what it is.
 */
function openRegular(path: string, follow: boolean): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UnreadableFileError(path, 'is a symbolic link, which is not followed here');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { fd, stats };
    throw new UnreadableFileError(path, `is ${kindOf(stats)}`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Fills `buffer` from `offset` of the open file, up to its end; the bytes read. */
function readAt(fd: number, buffer: Buffer, offset: number): number {
  let size = 0;
  for (let n = 1; n > 0 && size < buffer.length; size += n)
    n = readSync(fd, buffer, size, buffer.length - size, offset + size);
  return size;
}
