import { parseStoredJson, RECORD_DEPTH } from '../../util/json.js';
import type { z } from 'zod';
import {
  HISTORY_SCHEMA,
  historyEntrySchema,
  indexRowSchema,
  type HistoryEntry,
  type IndexRow,
} from '../../contracts/history.js';
import { HistoryVersionError } from './errors.js';
import { sortRows } from './index-merge.js';

/**
 * Reading what a history holds: our files, a newer tracegate's (an error:
 * upgrade), and anything else — corrupt JSON, another tool's file, a row or
 * entry that does not validate — skipped with a warning that names the file.
 */

const OURS = Number(/@(\d+)$/.exec(HISTORY_SCHEMA)![1]);
/** Bad rows named one by one before the rest are only counted. */
const NAMED_ROWS = 5;

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

type Kind = 'ours' | 'foreign';

/** Ours, or foreign; throws on a newer tracegate's file (checked before any other field). */
function classify(value: unknown, file: string): Kind {
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof schema !== 'string') return 'foreign';
  const m = /^tracegate\/history@(\d+)$/.exec(schema);
  if (!m) return 'foreign';
  if (Number(m[1]) > OURS) throw new HistoryVersionError(file, schema);
  return Number(m[1]) === OURS ? 'ours' : 'foreign';
}

function json(text: string, file: string): { value?: unknown; warning?: string } {
  try {
    return { value: parseStoredJson(text, RECORD_DEPTH) };
  } catch (error) {
    return { warning: `${file} is not valid JSON (${(error as Error).message}): skipped.` };
  }
}

function schemaOf(value: unknown): string {
  const schema = (value as { schema?: unknown } | null)?.schema;
  return typeof schema === 'string' ? JSON.stringify(schema.slice(0, 80)) : 'none';
}

/** The rows of an index file; an unreadable file gives no rows and a warning. */
/**
 * Why an index file is not a tracegate history index this version can
 * write to (unreadable JSON, another schema), or undefined when it is;
 * throws HistoryVersionError when a newer tracegate wrote it.
 */
export function foreignIndex(text: string, file: string): string | undefined {
  const { value, warning } = json(text, file);
  if (warning) return `${file} is not valid JSON`;
  if (classify(value, file) === 'foreign')
    return `${file} is not a tracegate history index (schema ${schemaOf(value)})`;
  return undefined;
}

export function parseIndex(text: string, file: string): { rows: IndexRow[]; warnings: string[] } {
  const { value, warning } = json(text, file);
  if (warning) return { rows: [], warnings: [warning] };
  if (classify(value, file) === 'foreign')
    return {
      rows: [],
      warnings: [`${file} is not a tracegate history index (schema ${schemaOf(value)}): skipped.`],
    };
  const raw = (value as { rows?: unknown }).rows;
  if (!Array.isArray(raw)) return { rows: [], warnings: [`${file} has no list of rows: skipped.`] };
  const rows: IndexRow[] = [];
  const bad: string[] = [];
  const seen = new Set<string>();
  raw.forEach((row: unknown, i) => {
    const parsed = indexRowSchema.safeParse(row);
    if (!parsed.success) return bad.push(`row ${i + 1} (${firstIssue(parsed.error)})`);
    // One row per run and commit (recording again replaces it): a second is not drawn twice.
    const key = `${parsed.data.name}\0${parsed.data.commit}`;
    if (seen.has(key))
      return bad.push(
        `row ${i + 1} (a second row of ${parsed.data.name} at ${parsed.data.commit})`,
      );
    seen.add(key);
    rows.push(parsed.data);
  });
  const warnings = bad.length
    ? [
        `${file}: ${bad.length} unreadable row(s) skipped: ${bad.slice(0, NAMED_ROWS).join('; ')}` +
          (bad.length > NAMED_ROWS ? `; and ${bad.length - NAMED_ROWS} more.` : '.'),
      ]
    : [];
  return { rows: sortRows(rows), warnings };
}

/**
 * An entry file, checked to be the entry its path says (`expect`): a file
 * that claims another run or commit is as foreign as a corrupt one.
 */
export function parseEntry(
  text: string,
  file: string,
  expect?: { name: string; commit: string },
): { entry?: HistoryEntry; warning?: string } {
  const { value, warning } = json(text, file);
  if (warning) return { warning };
  if (classify(value, file) === 'foreign')
    return {
      warning: `${file} is not a tracegate history entry (schema ${schemaOf(value)}): skipped.`,
    };
  const parsed = historyEntrySchema.safeParse(value);
  if (!parsed.success)
    return { warning: `${file} is not a readable entry (${firstIssue(parsed.error)}): skipped.` };
  const entry = parsed.data;
  if (expect && (entry.name !== expect.name || entry.commit !== expect.commit))
    return {
      warning:
        `${file} holds the entry of ${entry.name} at ${entry.commit}, not of its path ` +
        `(${expect.name} at ${expect.commit}): skipped.`,
    };
  return { entry };
}

/** The index file's text: rows in order, one per line (diffs of the data branch stay readable). */
export function serializeIndex(rows: readonly IndexRow[]): string {
  return `{"schema":${JSON.stringify(HISTORY_SCHEMA)},"rows":[\n${rows
    .map((r) => JSON.stringify(r))
    .join(',\n')}\n]}\n`;
}

/** An entry file's text. */
export function serializeEntry(entry: HistoryEntry): string {
  return `${JSON.stringify(entry)}\n`;
}
