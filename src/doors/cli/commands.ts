import { forTerminal } from '../../app/commands/terminal.js';
import type { Engines, Lifecycle, Logger } from '../../app/config/assemble.js';
import {
  COMPARE_OPTION_NAMES,
  HARVEST_OPTION_NAMES,
  parseHarvestOptions,
  parseRunOptions,
  RUN_OPTION_NAMES,
  type RunOptions,
} from '../../app/config/options.js';
import type { Verdict } from '../../contracts/comparison.js';
import { ExitCode, exitCodeOf, messageOf, UsageError } from '../../errors.js';
import { runGate } from '../../app/run-gate.js';
import { dashboardCommand as writeDashboard } from '../../app/commands/dashboard.js';
import { harvestCommand as harvestOracles } from '../../app/commands/harvest.js';
import { localCommitGraph } from '../../app/commands/local.js';
import { compareCommand } from './compare.js';
import { MERGE_FLAGS, mergeCommand } from './merge.js';
import { auditCommand } from './audit.js';
import { generateCommand, statsCommand } from './generate.js';
import { scoreCommand } from './score.js';
import { inertLog } from '../../util/inert-log.js';
import { demoCommand } from '../../app/commands/demo.js';
import {
  closest,
  commandUsage,
  exitCodeFor,
  HelpRequest,
  parseFlags as parseNamedFlags,
  AT_COMMIT,
  atCommit,
  CLI_TREND_COMMITS,
  type Io,
} from './flags.js';

const COMMANDS = [
  'run',
  'harvest',
  'demo',
  'compare',
  'dashboard',
  'generate',
  'stats',
  'audit',
  'score',
  'merge',
  'help',
];

export type { Io };

export const USAGE = `tracegate — does the model still predict what the code does when it runs?

Usage:
  tracegate demo [--out DIR] [--cache DIR] [--backend auto|docker|local]
      The gate at work: harvest click's test-outcome items for real, answer them with the
      built-in demo model (a static heuristic on loopback, never the oracle) at three
      checkpoints in a temporary history — a baseline, a regressed one (fail, with its
      flipped items and the trend) and an unchanged one (pass).
  tracegate run --endpoint URL --model NAME [options]
      Run the gate against a candidate endpoint; writes OUT/results.json and OUT/report.md.
  tracegate run --shard i/n ...
      Answer part i of the selection split into n (a matrix job; clusters kept whole): its
      results carry the plan; no verdict, no history entry (the merge gives both).
  tracegate merge DIR... [--out DIR] [--history DIR --commit SHA --parent SHA] [gate options]
      Merge the shards' output directories (or a directory holding them) into the one run
      they are parts of; then compare, report and record once, as an unsharded run would.
  tracegate harvest [--instances DIR] [--cache DIR] [selection and harvest options]
      Harvest oracles only (into the cache).
  tracegate compare --baseline FILE --candidate FILE [gate options] [--out DIR]
      The gate on two results.json files (the function run and the Action call):
      prints the verdict and the per-kind table, writes OUT/comparison.json.
  tracegate dashboard --history DIR [--out FILE]
      One self-contained HTML page of scores per commit per kind, with the gate's verdicts.
  tracegate generate --environment FILE --tests DIR --out DIR [--packages A,B] [--seed S]
      Write a suite from test files: scout, propose every kind, harvest, screen (docs/generate.md).
  tracegate stats [--instances DIR] [--json] [--markdown]
      The kind × package table of a suite (default: the bundled benchmark).
  tracegate audit [--instances DIR] [--cache DIR] [--json]
      The leak audit of harvested items: prompt-only adversaries against each kind's floor;
      exit 1 when one beats it by more than 5 points (docs/benchmark-validity.md).
  tracegate score --scoring strict|swe-flux FILE.jsonl
      Score (oracle, prediction) pairs, one JSON object a line (docs/scoring.md).

Selection and harvest (run and harvest):
  --instances DIR        instances directory (default: the bundled benchmark; the demo: click's W1 items)
  --categories K,..      kinds (S1_IntraProceduralCFG), prefixes (S1) or names (Loops)
  --ids ID,..            exact instance ids
  --sample N --seed S    run a seeded sample of N instances
  --cache DIR            cache directory: oracles, and model replies when the revision
                         is known (default .tracegate/cache)
  --backend docker|local|auto   where tests run (default docker; the demo: auto)
  --base-image IMAGE     base of environment images (default python:<python>-slim,
                         pulled, else the locally built Debian stand-in)
  --swe-flux-images NAME=IMAGE,..  with --instances a SWE-Flux run directory: the local image
                         for each image name the run uses (default: the name itself)
  --docker-host URL      the engine to harvest on: tcp://HOST:PORT (TLS from DOCKER_TLS_VERIFY,
                         DOCKER_CERT_PATH), ssh://USER@HOST (default: DOCKER_HOST, the local socket)
  --image-registry REPO  pull environment images from REPO (e.g. localhost:5000/tracegate-env)
                         under their content tag before building; push what is built
  --image-registry-push auto|true|false  push built images (default auto: yes on the CLI)
  --retry-failed true    harvest again the instances that failed for this tracer and environment
                         (default false: a failure is remembered in the cache for 10 runs)

Model and output (run; the Action's inputs have the same names):
  --endpoint URL         API base URL, e.g. http://127.0.0.1:8000/v1
  --model NAME           model name as the server knows it
  --model-revision REV   checkpoint digest or commit, recorded with the results
  --api-key KEY          bearer key (or TRACEGATE_API_KEY)
  --baseline auto|SHA|FILE  what to compare with: auto (default with --history: the
                         entry of --parent, walking back), a commit of the history, or a
                         results.json file
  --history DIR          track scores per commit in DIR (entries + index + index.html)
  --commit SHA --parent SHA  the commit this run is recorded at, and its first parent
  --name NAME            the run's name: one history series per name (default tracegate)
  --retention N          history entries kept per name (default 500)
  --out DIR              output directory (default tracegate-out)
  --api API              openai-chat (default), openai-completions (base checkpoints), anthropic
  --concurrency N        requests in flight (default 4)
  --timeout SECONDS      per request, whole body included (default 120)
  --retries N            retries of transient failures (default 3; backoff honours Retry-After)
  --time-budget SECONDS  total time for all requests (default: no limit)
  --preflight true|false  check the endpoint before the harvest: its model list and one
                         4-token request, so a wrong URL, model or key fails in seconds (default true)
  --endpoint-wait S      wait up to S seconds for a server still starting (its /health, its
                         model list, one tiny request, polled); default 0: one attempt (the Action: 600)
  --price IN/OUT         USD per million input / output tokens (e.g. 3/15): the report shows the cost
  --temperature T --max-tokens N --top-p P
  --generation-seed N    sampling seed sent to the server (sample i gets N+i)
  --stop S               a stop string, or a JSON array of them
  --extra-body JSON      object merged into every request (e.g. '{"top_k": 20}')
  --samples K            answers per instance: majority scored, pass@K reported, the gate
                         pairs per-item success rates (default 1)
  --scoring strict|swe-flux  strict: sound, for gating (default); swe-flux: SWE-Flux's
                         score_answer, leniencies included (docs/scoring.md)
  --variants off|only|"add N"  fresh variants (perturbed test inputs, screened, per epoch)
  --variant-epoch E      the variants' seed (default 1); pairs stay within one epoch
  --shard i/n            answer part i of n of the selection (a matrix job; merge them)
  --context MODE         slice (default), files or none: how much code the prompt shows;
                         repo: none, read-only tools over the environment's source instead
  --tool-turns N --tool-calls N --tool-result-bytes N --tool-tokens N
                         repo's limits per question (16, 32, 12000, 200000)
  --world-factor F       W2/W3 predictions pass within this factor of the measurement (2)
  --context-budget N     prompt limit in chars (48000) or tokens (12000t; default 16000t)

Gate (run and compare; docs/gate.md states every rule):
  --min-drop X           smallest drop (0..1) that can fail; a pass must rule it out (default 0.05)
  --min-gain X           smallest significant gain reported as improved (default 0.05)
  --alpha A              one-sided family-wise error over overall + kinds (default 0.05)
  --cluster-by C         test (default), package or none: items of one cluster are not independent
  --gate G               overall (default): the overall interval decides a pass; per-kind: every kind's too
  --max-excluded S       above this share of excluded shared items, at best inconclusive (default 0.05)
  --on-inconclusive X    neutral (default: exit 4, a neutral check), pass (exit 0) or fail (exit 1)
  --top-up N             run only: when inconclusive, add up to N paired items the baseline
                         answered outside the sample and decide again (default 0: off)

Exit codes: 0 pass (or no baseline), 1 gate failed, 2 bad usage/config/instance,
3 infrastructure unavailable, 4 inconclusive (with --on-inconclusive neutral), 130 interrupted.`;

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t + '\n'),
  stderr: (t) => process.stderr.write(t + '\n'),
  env: process.env,
};

/** The flags each command takes (for its usage and its typo suggestions). */
const COMMAND_FLAGS: Record<string, readonly string[]> = {
  run: [...RUN_OPTION_NAMES, 'commit', 'parent'],
  demo: RUN_OPTION_NAMES,
  harvest: HARVEST_OPTION_NAMES,
  dashboard: ['history', 'out'],
  compare: COMPARE_OPTION_NAMES,
  merge: [...MERGE_FLAGS, 'commit', 'parent'],
};

function parseFlags<N extends string>(
  args: string[],
  names: readonly N[] = RUN_OPTION_NAMES as unknown as N[],
  command = 'run',
): Partial<Record<N, string>> {
  return parseNamedFlags(args, names, USAGE, command);
}

/** `tracegate help CMD`: that command's usage; the whole text for anything else. */
function helpFor(command: string | undefined): string {
  const names = command ? COMMAND_FLAGS[command] : undefined;
  if (command && names) return commandUsage(USAGE, command, names);
  if (command && /^(generate|stats|audit|score)$/.test(command))
    return commandUsage(USAGE, command, []);
  return USAGE;
}

/** Runs one CLI invocation and returns its exit code. */
export async function cli(
  argv: string[],
  io: Io = defaultIo,
  lifecycle: Lifecycle = {},
  /** Where tests run and who answers, for tests (default: built from the options). */
  engines?: Engines,
): Promise<number> {
  const [command, ...rest] = argv;
  // The log (and the error line) of a CLI run inside a workflow is read by the runner too: inert.
  const logger: Logger = {
    log: (m) => io.stderr(inertLog(m)),
    warn: (m) => io.stderr(inertLog(`warning: ${m}`)),
  };
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io, logger, lifecycle, engines);
      case 'harvest':
        return await harvestCommand(rest, io, logger, lifecycle);
      case 'demo':
        // The demo shows the gate; it is not one: exit 0 whatever its verdicts.
        for (const text of await demoCommand(
          parseFlags(rest, RUN_OPTION_NAMES, 'demo'),
          logger,
          lifecycle,
          engines,
        ))
          io.stdout(forTerminal(text));
        return ExitCode.Pass;
      case 'merge':
        return await mergeCommand(rest, io, logger, USAGE);
      case 'dashboard':
        return await dashboardCommand(rest, io, logger);
      case 'compare':
        return compareCommand(rest, io, USAGE);
      case 'generate':
        return await generateCommand(rest, io, logger, lifecycle);
      case 'stats':
        return statsCommand(rest, io, logger);
      case 'audit':
        return auditCommand(rest, io, logger);
      case 'score':
        return scoreCommand(rest, io);
      case 'help':
        io.stdout(helpFor(rest[0]));
        return ExitCode.Pass;
      case undefined:
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return command === undefined ? ExitCode.Usage : ExitCode.Pass;
      default:
        throw new UsageError(
          `unknown command "${command}"` +
            (closest(command, COMMANDS) ? ` (did you mean ${closest(command, COMMANDS)}?)` : '') +
            '; `tracegate help` lists the commands',
        );
    }
  } catch (error) {
    if (error instanceof HelpRequest) {
      io.stdout(error.usage);
      return ExitCode.Pass;
    }
    io.stderr(inertLog(`tracegate: ${messageOf(error)}`));
    return exitCodeOf(error);
  }
}

async function runCommand(
  args: string[],
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
  engines?: Engines,
): Promise<number> {
  const { commit, parent, ...flags } = parseFlags(args, [...RUN_OPTION_NAMES, ...AT_COMMIT], 'run');
  const options = parseRunOptions({
    ...flags,
    'api-key': flags['api-key'] ?? io.env.TRACEGATE_API_KEY,
  });
  return runWith(
    options,
    io,
    logger,
    lifecycle,
    (verdict) => exitCodeFor(verdict, options['on-inconclusive']),
    atCommit(commit, parent),
    engines,
  );
}

/** The gate run (the application both doors call), its report on stdout. */
async function runWith(
  options: RunOptions,
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
  exitFor: (verdict: Verdict) => number,
  at?: { commit: string; parent?: string },
  engines?: Engines,
): Promise<number> {
  const outcome = await runGate(
    {
      options,
      ...(at ? { event: { kind: 'push' as const, ...at, sha: at.commit }, record: at } : {}),
      trend: { last: CLI_TREND_COMMITS },
      howToRecord: 'a run with --history DIR --commit SHA records one',
    },
    { logger, lifecycle, commitGraph: localCommitGraph(), engines },
  );
  io.stdout(forTerminal(outcome.report));
  // A shard has no verdict of its own: it succeeds when its part was answered (the merge gates).
  return options.shard ? ExitCode.Pass : exitFor(outcome.comparison.verdict);
}

async function dashboardCommand(args: string[], io: Io, logger: Logger): Promise<number> {
  const { history, out } = parseFlags(args, ['history', 'out'] as const, 'dashboard');
  if (!history) throw new UsageError('dashboard needs --history DIR (a history directory)');
  const file = out ?? 'tracegate-dashboard.html';
  const entries = await writeDashboard(history, file, logger);
  io.stdout(`Wrote ${file} (${entries} entr${entries === 1 ? 'y' : 'ies'})`);
  return ExitCode.Pass;
}

async function harvestCommand(
  args: string[],
  io: Io,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<number> {
  const options = parseHarvestOptions(parseFlags(args, HARVEST_OPTION_NAMES, 'harvest'));
  const { summary, rejected } = await harvestOracles(options, logger, lifecycle);
  io.stdout(
    `oracles: ${summary.cached} cached, ${summary.harvested} harvested, ${summary.failed} failed` +
      (summary.remembered ? ` (${summary.remembered} remembered from an earlier run)` : ''),
  );
  for (const env of summary.environments)
    io.stdout(
      `  environment ${env.name}: ${env.source}, ${env.runtime} (${env.digest.slice(0, 12)})`,
    );
  for (const [id, outcome] of summary.outcomes) {
    if (outcome.status !== 'ok') io.stdout(`  ${id}: ${outcome.status} — ${outcome.reason}`);
  }
  for (const r of rejected) io.stdout(`  rejected ${r.reason}`);
  return ExitCode.Pass;
}
