import { scoreFile, scoringModeOf } from '../../app/commands/score.js';
import { ExitCode, UsageError } from '../../errors.js';
import { parseCommandArgs, type Io } from './flags.js';

export const SCORE_USAGE = `tracegate score --scoring strict|swe-flux FILE.jsonl
  Scores (oracle, prediction) pairs: each input line {"id"?: …, "oracle": <oracle_answer>,
  "prediction": <a parsed answer.json value>}; each output line {"id": …, "correct": true|false},
  in input order (id: the line number when the line has none). docs/scoring.md has the rules.`;

export function scoreCommand(args: string[], io: Io): number {
  const parsed = parseCommandArgs(
    {
      args,
      options: { scoring: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    },
    SCORE_USAGE,
  );
  const mode = scoringModeOf(parsed.values.scoring ?? 'strict', SCORE_USAGE);
  if (parsed.positionals.length !== 1)
    throw new UsageError(`score takes one FILE.jsonl\n\n${SCORE_USAGE}`);
  const file = parsed.positionals[0]!;
  const { lines, bad } = scoreFile(file, mode);
  if (lines.length) io.stdout(lines.join('\n'));
  if (bad.length) {
    io.stderr(
      `tracegate: ${bad.length} line(s) of ${file} could not be scored (written as incorrect, with "error"):\n  ` +
        bad.slice(0, 20).join('\n  ') +
        (bad.length > 20 ? `\n  … and ${bad.length - 20} more` : ''),
    );
    return ExitCode.Usage;
  }
  return ExitCode.Pass;
}
