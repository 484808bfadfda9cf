import { parseStoredJson } from '../../util/json.js';
import { randomBytes } from 'node:crypto';
import { realDir } from './real-dir.js';
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { makeDirs, writeFileAtomic, writing } from './atomic.js';
import { readRegularFile, readRegularRange, scanLines } from './read-file.js';
import type { ResponseCache } from '../../contracts/ports.js';
import type { Completion } from '../../contracts/model.js';

/** A stored reply larger than this is not one (replies are read up to 8 MiB). */
const MAX_STORED_BYTES = 16 * 1024 * 1024;
/** How much of the logs is read, each and together, and how many: past these, a log is not read. */
export interface LogBounds {
  /** One log larger than this is not read (its replies are asked again); a writer begins another. */
  logBytes: number;
  /** The logs read together, newest first: the older ones past this are not read. */
  totalBytes: number;
  /** Logs read at most, newest first. */
  logs: number;
  /** Bytes read at a time while indexing: the memory an index costs whatever the logs hold. */
  chunkBytes: number;
}
const LOG_BOUNDS: LogBounds = {
  logBytes: 1024 * 1024 * 1024,
  totalBytes: 4 * 1024 * 1024 * 1024,
  logs: 4096,
  chunkBytes: 8 * 1024 * 1024,
};
/** A log's name: `<ms, base 36>-<pid>-<nonce>.jsonl`, so that names sort by when they were begun. */
const LOG_NAME = /^[0-9a-z]{9}-\d+-[0-9a-f]{12}\.jsonl$/;
/** The start of a log line, `["<key>",`: the key is read off it without parsing the reply. */
const LINE_KEY = /^\["([0-9a-f]{2,128})",/;

/** The counts a stored reply may carry: a count past these was not measured (a forged or corrupt log). */
const count = z.number().int().nonnegative().max(1e9);
/** A stored reply, checked as a reply is when it arrives: counts whole and in range, or it is a miss. */
const storedSchema = z.object({
  text: z.string(),
  reasoning: z.string().optional(),
  finishReason: z.string().optional(),
  tokensIn: count,
  tokensOut: count,
  latencyMs: z.number().nonnegative().max(864e5),
  retries: count,
  toolCalls: z
    .array(z.strictObject({ id: z.string(), name: z.string(), arguments: z.string() }))
    .max(64)
    .optional(),
});

/** Where a reply's line is in the logs. */
interface At {
  log: string;
  offset: number;
  length: number;
}

/**
 * Replies on disk, by request key, in append-only logs under `<cache>/responses/log/`: one line
 * `["<key>", <reply>]` per reply, each process appending to a log of its own, begun at its first
 * reply. Creating a file costs 0.15-0.25 ms of synchronous work on a slow disk, which at 256
 * replies in flight is a few per cent of the throughput (docs/bench-endpoint.md); an append costs
 * microseconds, and the shared cache saves a few files instead of one per reply.
 *
 * The logs are indexed at the first `get` or `put` (the key read off each line's start; the
 * reply parsed and checked only when asked for), a later line of a key winning. Replies of the
 * layout before the logs, `<k[0:2]>/<k>.json`, are still read. Anything malformed (a line torn by
 * a kill, a forged key, a reply of the wrong shape) is a miss, asked again, never trusted or fatal.
 */
export class DirResponseCache implements ResponseCache {
  private index?: Map<string, At>;
  private own?: { fd: number; path: string; size: number };
  /** The keys read or written by this object: what `prune` keeps. */
  private readonly used = new Set<string>();

  private readonly bounds: LogBounds;

  constructor(
    readonly dir: string,
    bounds: Partial<LogBounds> = {},
  ) {
    this.bounds = { ...LOG_BOUNDS, ...bounds };
  }

  private get logs(): string {
    return realDir(
      join(realDir(this.dir, 'The reply cache'), 'log'),
      "The reply cache's log folder",
    );
  }

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): Completion | undefined {
    const at = this.indexed().get(key);
    const line = at && readBytes(at);
    const logged = line && replyOf(line, key);
    if (logged) {
      this.used.add(key);
      return logged;
    }
    const file = this.file(key);
    if (!lstatSync(file, { throwIfNoEntry: false })) return undefined;
    try {
      const text = readRegularFile(file, { maxBytes: MAX_STORED_BYTES, follow: false });
      const completion = storedSchema.parse(parseStoredJson(text));
      touch(file); // used this run: kept when the shared cache is pruned
      this.used.add(key);
      return completion;
    } catch {
      return undefined;
    }
  }

  put(key: string, completion: Completion): void {
    const index = this.indexed();
    const line = Buffer.from(
      `[${JSON.stringify(key)},${JSON.stringify({ ...completion, cached: undefined })}]\n`,
    );
    // A log stays within what a reader reads: a full one is closed and another begun.
    if (this.own && this.own.size + line.length > this.bounds.logBytes) this.closeOwn();
    const own = this.ownLog();
    writing(own.path, () => writeAll(own.fd, line));
    index.set(key, { log: own.path, offset: own.size, length: line.length - 1 });
    own.size += line.length;
    this.used.add(key);
  }

  /**
   * Keeps only the replies this object read or wrote (and the older layout's files read or
   * written since `since`, ms), before a shared cache is saved: its entry then holds this run's
   * replies, not every earlier model revision's, which no later run asks again (each commit is a
   * revision of its own). The logs are rewritten as one. Returns how many replies it removed.
   */
  prune(since: number): number {
    let removed = pruneFiles(this.dir, since);
    const index = this.indexed();
    const logs = listLogs(this.logs);
    const kept = [...this.used].filter((key) => index.has(key));
    if (kept.length === index.size && logs.length <= 1) return removed;
    removed += index.size - kept.length;
    const lines: Buffer[] = [];
    for (const key of kept) {
      const line = readBytes(index.get(key)!);
      if (line && replyOf(line, key)) lines.push(line, Buffer.from('\n'));
    }
    this.closeOwn();
    const compacted = join(this.logs, logName());
    if (lines.length) writeFileAtomic(compacted, Buffer.concat(lines));
    for (const name of logs) removeLog(join(this.logs, name));
    this.index = undefined;
    return removed;
  }

  private indexed(): Map<string, At> {
    if (this.index) return this.index;
    const index = new Map<string, At>();
    // Newest first within the bounds (a later line of a key wins, so the older logs are the ones
    // left out), then indexed oldest first.
    const chosen: string[] = [];
    let total = 0;
    for (const name of listLogs(this.logs).reverse()) {
      if (chosen.length >= this.bounds.logs) break;
      const size = lstatSync(join(this.logs, name), { throwIfNoEntry: false })?.size ?? 0;
      if (size > this.bounds.logBytes) continue; // not read: its replies are asked again
      if (total + size > this.bounds.totalBytes) break;
      total += size;
      chosen.push(name);
    }
    for (const name of chosen.reverse()) {
      const log = join(this.logs, name);
      try {
        scanLines(
          log,
          { maxBytes: this.bounds.logBytes, head: 140, chunkBytes: this.bounds.chunkBytes },
          (head, offset, length) => {
            const key = LINE_KEY.exec(head.toString('latin1'))?.[1];
            if (key) index.set(key, { log, offset, length });
          },
        );
      } catch {
        continue; // an unreadable log costs its replies (asked again), never the run
      }
    }
    this.index = index;
    return index;
  }

  private ownLog(): { fd: number; path: string; size: number } {
    if (this.own) return this.own;
    const path = join(this.logs, logName());
    const fd = writing(path, () => {
      makeDirs(this.logs);
      return openSync(path, 'a');
    });
    this.own = { fd, path, size: 0 };
    return this.own;
  }

  private closeOwn(): void {
    if (!this.own) return;
    closeSync(this.own.fd);
    this.own = undefined;
  }
}

/** The last log begun by this process, in ms: a log begun in the same ms is named after it. */
let lastBegun = 0;

/** A new log's name; within one process, each sorts after the one begun before it. */
function logName(): string {
  lastBegun = Math.max(Date.now(), lastBegun + 1);
  const stamp = lastBegun.toString(36).padStart(9, '0');
  return `${stamp}-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`;
}

/** The logs' names, oldest first (a later line of a key wins); anything else there is left alone. */
function listLogs(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => LOG_NAME.test(name)).sort();
}

/**
 * A log gone: a link removed, not followed; a directory given a log's name
 * (a restored cache is not ours) removed whole. A file removed as a file, so
 * that a failure names what failed (unlink, not a directory walk).
 */
function removeLog(path: string): void {
  try {
    if (lstatSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
    else unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The line's bytes, read where the index says; undefined when the log is gone or short. */
function readBytes(at: At): Buffer | undefined {
  return at.length > MAX_STORED_BYTES ? undefined : readRegularRange(at.log, at.offset, at.length);
}

/** The reply a log line holds, if the line is `["<key>", <a reply>]` for this key. */
function replyOf(line: Buffer, key: string): Completion | undefined {
  try {
    const [lineKey, reply] = parseStoredJson(line.toString('utf8')) as unknown[];
    if (lineKey !== key) return undefined;
    return storedSchema.parse(reply);
  } catch {
    return undefined;
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let written = 0; written < bytes.length;)
    written += writeSync(fd, bytes, written, bytes.length - written);
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // A read-only cache still answers; it is only not pruned as precisely.
  }
}

/** The older layout's replies (`<k[0:2]>/<k>.json`) not read or written since `since`, removed. */
function pruneFiles(dir: string, since: number): number {
  let removed = 0;
  if (!lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return 0;
  for (const shard of readdirSync(dir, { withFileTypes: true })) {
    if (!shard.isDirectory() || shard.name === 'log') continue;
    const at = join(dir, shard.name);
    for (const name of readdirSync(at)) {
      const file = join(at, name);
      const stat = lstatSync(file, { throwIfNoEntry: false });
      // A second of slack: some filesystems keep whole-second times.
      if (stat && (!stat.isFile() || stat.mtimeMs < since - 1000)) {
        unlinkSync(file);
        removed++;
      }
    }
  }
  return removed;
}
