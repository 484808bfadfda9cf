import { parseArgs } from 'node:util';
import { BASELINE_MODEL, startBaselineServer } from '../baseline/server.js';
import { backendFactory, toRunConfig, toRunDeps, type Logger } from '../config/assemble.js';
import { parseRunOptions, RUN_OPTION_NAMES, type RunOptionName } from '../config/options.js';
import { ExitCode, exitCodeOf, messageOf, UsageError } from '../errors.js';
import { harvestOnly, runPipeline } from '../pipeline.js';

export const USAGE = `tracegate — does the model still predict what the code does when it runs?

Usage:
  tracegate demo [--out DIR] [--cache DIR] [--backend auto|docker|local]
      Harvest the bundled suite for real, answer it with the built-in baseline
      endpoint (a static heuristic on loopback), score and print the report.
  tracegate run --endpoint URL --model NAME [options]
      Run the gate against a candidate endpoint; writes OUT/results.json and OUT/report.md.
  tracegate harvest [--instances DIR] [--cache DIR]
      Harvest oracles only (into the cache).

Options (run; the Action's inputs have the same names):
  --instances DIR        instances directory (default: the bundled suite)
  --endpoint URL         API base URL, e.g. http://127.0.0.1:8000/v1
  --model NAME           model name as the server knows it
  --model-revision REV   checkpoint digest or commit, recorded with the results
  --api-key KEY          bearer key (or TRACEGATE_API_KEY)
  --categories K,..      kinds (S1_IntraProceduralCFG), prefixes (S1) or names (Loops)
  --ids ID,..            exact instance ids
  --sample N --seed S    run a seeded sample of N instances
  --cache DIR            oracle cache (default .tracegate/cache)
  --baseline FILE        results.json of the baseline commit to compare with
  --out DIR              output directory (default tracegate-out)
  --cache DIR            also holds the response cache (used when the model revision is known)
  --api API              openai-chat (default), openai-completions (base checkpoints), anthropic
  --concurrency N        requests in flight (default 4)
  --timeout SECONDS      per request, whole body included (default 120)
  --retries N            retries of transient failures (default 3; backoff honours Retry-After)
  --time-budget SECONDS  total time for all requests (default: no limit)
  --temperature T --max-tokens N --top-p P
  --generation-seed N    sampling seed sent to the server (sample i gets N+i)
  --stop S               a stop string, or a JSON array of them
  --extra-body JSON      object merged into every request (e.g. '{"top_k": 20}')
  --samples K            answers per instance: majority scored, pass@K reported (default 1)
  --context MODE         slice (default), files or none: how much code the prompt shows
  --context-budget N     prompt limit in chars (48000) or tokens (12000t; default 16000t)
  --backend docker|local|auto   where tests run (default docker)
  --base-image IMAGE     base of environment images (default tracegate/base:bookworm)
  --min-drop X --alpha A gate policy (defaults 0.05, 0.05)

Exit codes: 0 pass, 1 gate failed, 2 bad usage/config/instance, 3 infrastructure unavailable.`;

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t + '\n'),
  stderr: (t) => process.stderr.write(t + '\n'),
  env: process.env,
};

function parseFlags(args: string[]): Partial<Record<RunOptionName, string>> {
  const options = Object.fromEntries(
    RUN_OPTION_NAMES.map((name) => [name, { type: 'string' as const }]),
  );
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return values as Partial<Record<RunOptionName, string>>;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError(`${messageOf(error)}\n\n${USAGE}`);
  }
}

/** Runs one CLI invocation and returns its exit code. */
export async function cli(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  const logger: Logger = { log: (m) => io.stderr(m), warn: (m) => io.stderr(`warning: ${m}`) };
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io, logger);
      case 'harvest':
        return await harvestCommand(rest, io, logger);
      case 'demo':
        return await demoCommand(rest, io, logger);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return command === undefined ? ExitCode.Usage : ExitCode.Pass;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (error) {
    io.stderr(`tracegate: ${messageOf(error)}`);
    return exitCodeOf(error);
  }
}

async function runCommand(args: string[], io: Io, logger: Logger): Promise<number> {
  const flags = parseFlags(args);
  const options = parseRunOptions({
    ...flags,
    'api-key': flags['api-key'] ?? io.env.TRACEGATE_API_KEY,
  });
  const outcome = await runPipeline(toRunConfig(options), toRunDeps(options, logger));
  io.stdout(outcome.report);
  return outcome.comparison.verdict === 'fail' ? ExitCode.GateFailed : ExitCode.Pass;
}

async function harvestCommand(args: string[], io: Io, logger: Logger): Promise<number> {
  // Harvest needs no endpoint; placeholders satisfy the shared schema.
  const options = parseRunOptions({
    ...parseFlags(args),
    endpoint: 'http://unused',
    model: 'unused',
  });
  const summary = await harvestOnly(toRunConfig(options), {
    ...logger,
    backend: backendFactory(options, logger),
  });
  io.stdout(
    `oracles: ${summary.cached} cached, ${summary.harvested} harvested, ${summary.failed} failed`,
  );
  for (const [id, outcome] of summary.outcomes) {
    if (outcome.status !== 'ok') io.stdout(`  ${id}: ${outcome.status} — ${outcome.reason}`);
  }
  return ExitCode.Pass;
}

async function demoCommand(args: string[], io: Io, logger: Logger): Promise<number> {
  const flags = parseFlags(args);
  const server = await startBaselineServer();
  logger.log(
    `Built-in baseline endpoint (static heuristic, not the oracle) listening on ${server.url}`,
  );
  try {
    const options = parseRunOptions({
      backend: 'auto',
      ...flags,
      endpoint: server.url,
      model: BASELINE_MODEL,
    });
    const outcome = await runPipeline(toRunConfig(options), toRunDeps(options, logger));
    io.stdout(outcome.report);
    return ExitCode.Pass;
  } finally {
    await server.close();
  }
}
