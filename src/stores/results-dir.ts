import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  renameSync,
} from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { describeIssues } from '../instances/schema.js';
import { resultsSchema, type InstanceRecord, type Results } from './schema.js';

/**
 * The run's output directory: records.jsonl grows one line per finished
 * instance (so an interrupted run keeps every answer it got), results.json and
 * report.md are written whole at the end (or at an abort).
 */
export class OutputDir {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(this.recordsFile, '');
  }

  get recordsFile(): string {
    return join(this.dir, 'records.jsonl');
  }

  append(record: InstanceRecord): void {
    appendFileSync(this.recordsFile, JSON.stringify(record) + '\n');
  }

  writeResults(results: Results, report: string): void {
    atomicWrite(join(this.dir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
    atomicWrite(join(this.dir, 'report.md'), report);
  }
}

function atomicWrite(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** Reads a results.json (e.g. a baseline), naming the file and field when it is malformed. */
export function readResults(file: string, what = '--baseline'): Results {
  if (!existsSync(file)) throw new UsageError(`${what} ${file}: no such file`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
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
