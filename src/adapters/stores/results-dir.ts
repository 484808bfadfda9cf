import { parseStoredJson, RECORD_DEPTH } from '../../util/json.js';
import { closeSync, existsSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describeIssues } from '../../contracts/instance.js';
import { resultsSchema, type InstanceRecord, type Results } from '../../contracts/results.js';
import { UsageError } from '../../errors.js';
import { makeDirs, writeFileAtomic, writing } from './atomic.js';
import { readRegularFile, UnreadableFileError } from './read-file.js';
import type { Baseline, BaselineSource, ResultsSink } from '../../contracts/ports.js';

/**
 * The run's output directory: records.jsonl grows one line per finished
 * instance (so an interrupted run keeps every answer it got), results.json and
 * report.md are written whole at the end (or at an abort), each by rename.
 */
export class ResultsDir implements ResultsSink {
  private started = false;
  /** records.jsonl, open for appending while the run writes it (one write per record, not an open each). */
  private records?: number;

  constructor(readonly dir: string) {}

  /** Empties records.jsonl on the first write of this run (not at construction: no side effects). */
  private start(): void {
    if (this.started) return;
    writing(this.recordsFile, () => {
      makeDirs(this.dir);
      writeFileSync(this.recordsFile, '');
    });
    this.started = true;
  }

  get location(): string {
    return join(this.dir, 'results.json');
  }

  get recordsFile(): string {
    return join(this.dir, 'records.jsonl');
  }

  append(record: InstanceRecord): void {
    this.start();
    writing(this.recordsFile, () => {
      this.records ??= openSync(this.recordsFile, 'a');
      writeSync(this.records, JSON.stringify(record) + '\n');
    });
  }

  finish(results: Results, report: string): void {
    this.start();
    if (this.records !== undefined) closeSync(this.records);
    this.records = undefined;
    writeFileAtomic(join(this.dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileAtomic(join(this.dir, 'report.md'), report);
  }
}

/** A results.json larger than this is not read (one of 10,000 instances is a few tens of MB). */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

/**
 * Reads a results.json (e.g. a baseline): a regular file (a device, a pipe or
 * a directory is refused, never read or waited on) of at most
 * MAX_RESULTS_BYTES, naming the file and field when it is malformed.
 */
export function readResults(
  file: string,
  what = '--baseline',
  /** false: a symbolic link is refused, never read through (a shard's files: merge). */
  follow = true,
): Results {
  if (!existsSync(file)) throw new UsageError(`${what} ${file}: no such file`);
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: MAX_RESULTS_BYTES, follow });
  } catch (error) {
    if (error instanceof UnreadableFileError)
      throw new UsageError(`${what} ${error.message}: give a results.json a tracegate run wrote`);
    throw new UsageError(`${what} ${file}: cannot read it (${(error as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = parseStoredJson(text, RECORD_DEPTH);
  } catch (error) {
    throw new UsageError(`${what} ${file}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = resultsSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      `${what} ${file}: not a tracegate results file (${describeIssues(parsed.error)})`,
    );
  return parsed.data;
}

/** The baseline named by `--baseline FILE`. */
export class FileBaseline implements BaselineSource {
  constructor(private readonly file: string) {}

  resolve(): Promise<Baseline> {
    return Promise.resolve({ results: readResults(this.file), source: `file ${this.file}` });
  }
}
