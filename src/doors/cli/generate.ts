import type { Lifecycle, Logger } from '../../app/config/assemble.js';
import { GENERATE_OPTION_NAMES, parseGenerateOptions } from '../../app/config/generate-options.js';
import { generateCommand as generateSuite } from '../../app/generate/command.js';
import { statsCommand as suiteStatsText } from '../../app/commands/stats.js';
import { ExitCode, UsageError } from '../../errors.js';
import { parseCommandArgs, parseFlags, type Io } from './flags.js';

export const GENERATE_USAGE = `tracegate generate (--environment FILE | --repo PATH) --tests DIR --out DIR [options]
  Scouts what each test file runs of the package, asks every applicable kind on its
  richest functions, harvests the candidates twice in the environment, screens them
  (docs/generate.md) and writes the kept ones as a suite. Same inputs and seed, same bytes.

  --environment FILE     an environment recipe (pinned packages, a git commit, an image)
  --repo PATH            a git checkout: the environment is that repository at HEAD (a private
                         suite; --out inside it names it "self"); with --environment, that
                         recipe's packages and python are installed beside it
  --python 3.X           the interpreter of a --repo environment (default 3.11)
  --tests DIR            self-contained test files (test_*.py) that drive the package
  --out DIR              the suite written into (environments/ and SUITE/ under it)
  --packages A,B         import names whose code is asked about (default: the environment name)
  --suite NAME           folder under --out and id prefix (default: the environment name)
  --seed S               chooses among ties and caps (default 0)
  --targets-per-file N   functions of each test file asked about (default 12)
  --max N                instances kept at most, round robin over kinds
  --timeout SECONDS      per instance's harvest (default 60)
  --report FILE          kept and rejected candidates, each with its rule (default OUT/SUITE/generate-report.json)
  --variant-screen E|off keep only instances a run at epoch E finds a fresh variant of (default 0;
                         off: no screen, faster, but items that cannot vary can be memorised)
  --cache DIR --backend docker|local|auto --base-image IMAGE   as for harvest`;

export async function generateCommand(
  args: string[],
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<number> {
  const options = parseGenerateOptions(
    parseFlags(args, GENERATE_OPTION_NAMES, GENERATE_USAGE, 'generate'),
  );
  if (!options.environment && !options.repo)
    throw new UsageError(`generate needs --environment FILE or --repo PATH\n\n${GENERATE_USAGE}`);
  const report = await generateSuite(options, logger, lifecycle);
  io.stdout(
    `${report.accepted} instance(s) kept of ${report.candidates} candidate(s): ` +
      Object.entries(report.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
  );
  return ExitCode.Pass;
}

export const STATS_USAGE = `tracegate stats [--instances DIR] [--json] [--markdown]
  The kind × package table of a suite (default: the bundled benchmark).`;

export function statsCommand(args: string[], io: Io, logger: Logger): number {
  const { values } = parseCommandArgs(
    {
      args,
      options: {
        instances: { type: 'string' },
        json: { type: 'boolean' },
        markdown: { type: 'boolean' },
      },
      strict: true,
    },
    STATS_USAGE,
  );
  io.stdout(
    suiteStatsText(
      values.instances,
      values.json ? 'json' : values.markdown ? 'markdown' : 'text',
      logger,
    ),
  );
  return ExitCode.Pass;
}
