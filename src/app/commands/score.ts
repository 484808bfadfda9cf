import { readRegularFile } from '../../adapters/stores/read-file.js';
import { UsageError } from '../../errors.js';
import { jsonLoads } from '../../stages/score/python/json-reader.js';
import { hasKey, isDict, type PyValue } from '../../stages/score/python/values.js';
import { SCORERS, SCORING_MODES, type ScoringMode } from '../../stages/score/scorer.js';

/** Largest predictions file read (a line is a few KiB: tens of thousands of them). */
const MAX_SCORE_BYTES = 256 * 1024 * 1024;

/** The scoring mode named by `--scoring`, or a usage error listing the modes (`usage` after it). */
export function scoringModeOf(mode: string, usage = ''): ScoringMode {
  if (!(SCORING_MODES as readonly string[]).includes(mode))
    throw new UsageError(
      `--scoring must be one of ${SCORING_MODES.join(', ')}, got "${mode}"` +
        (usage ? `\n\n${usage}` : ''),
    );
  return mode as ScoringMode;
}

/**
 * `tracegate score`: each (oracle, prediction) line of `file` scored under `mode`; a line that
 * cannot be scored is written as incorrect and named in `bad`.
 */
export function scoreFile(file: string, mode: ScoringMode): { lines: string[]; bad: string[] } {
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: MAX_SCORE_BYTES, follow: true });
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as Error).message} (give a JSON Lines file of predictions)`,
    );
  }
  return scoreLines(text, mode);
}

/** One output line per non-blank input line; a line that cannot be scored says why and counts as incorrect. */
export function scoreLines(text: string, mode: ScoringMode): { lines: string[]; bad: string[] } {
  const scorer = SCORERS[mode];
  const lines: string[] = [];
  const bad: string[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const lineNo = index + 1;
    const row = jsonLoads(raw.replace(/\r$/, ''));
    const id: PyValue = isDict(row) && hasKey(row, 'id') ? row.id! : lineNo;
    let problem: string | undefined;
    if (row === undefined) problem = 'not one JSON value';
    else if (!isDict(row)) problem = 'not a JSON object';
    else if (!hasKey(row, 'oracle')) problem = 'no "oracle" key';
    else if (!hasKey(row, 'prediction')) problem = 'no "prediction" key';
    if (problem) {
      bad.push(`line ${lineNo}: ${problem}`);
      lines.push(`{"id":${toJson(id)},"correct":false,"error":${JSON.stringify(problem)}}`);
      return;
    }
    const { oracle, prediction } = row as { oracle: PyValue; prediction: PyValue };
    lines.push(`{"id":${toJson(id)},"correct":${scorer.score(oracle, prediction)}}`);
  });
  return { lines, bad };
}

/** JSON text of a value read by jsonLoads (integers of any size kept digit for digit). */
function toJson(v: PyValue): string {
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number' && !Number.isFinite(v))
    return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (isDict(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}
