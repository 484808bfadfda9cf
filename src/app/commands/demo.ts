import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGate, type GateRequest } from '../run-gate.js';
import { demoInstancesDir, type Engines, type Lifecycle, type Logger } from '../config/assemble.js';
import { parseRunOptions } from '../config/options.js';
import { verdictLine } from '../../stages/report/comparison.js';
import {
  HEURISTIC_MODEL,
  HEURISTIC_REGRESSED_MODEL,
  startHeuristicServer,
} from '../../adapters/heuristic-model/server.js';

/** A commit of the demo's history: a stable sha per label (the demo has no repository). */
const demoCommit = (label: string): string =>
  createHash('sha1').update(`tracegate-demo:${label}`).digest('hex');

/** The demo's three checkpoints, one commit each, recorded in one history. */
const CHECKPOINTS = [
  { label: 'baseline', model: HEURISTIC_MODEL, revision: 'demo-checkpoint-1' },
  {
    label: 'regressed',
    model: HEURISTIC_REGRESSED_MODEL,
    revision: 'demo-checkpoint-2',
    after: 'baseline',
  },
  { label: 'unchanged', model: HEURISTIC_MODEL, revision: 'demo-checkpoint-1', after: 'baseline' },
] as const;

/**
 * `tracegate demo`: the gate at work on a fresh machine. Oracles are
 * harvested for real (the default: click's test-outcome items, whose tests run
 * in a container), answered by the built-in demo model (a static heuristic
 * on loopback that never reads an oracle) at three checkpoints recorded in a
 * temporary history: a baseline, a regressed checkpoint (its replies cut off
 * three times in four) that the gate fails with its flipped items and the
 * trend, and an unchanged checkpoint that passes. What it prints, in order: the
 * regressed checkpoint's report, then the verdicts checkpoint by checkpoint.
 */
export async function demoCommand(
  flags: Record<string, string | undefined>,
  logger: Logger,
  lifecycle: Lifecycle,
  engines?: Engines,
): Promise<string[]> {
  const printed: string[] = [];
  const server = await startHeuristicServer();
  logger.log(
    `Built-in demo model (a static heuristic, not a real model and not the oracle) listening on ${server.url}`,
  );
  const history = flags.history ?? mkdtempSync(join(tmpdir(), 'tracegate-demo-history-'));
  const out = flags.out ?? 'tracegate-out';
  try {
    const verdicts: string[] = [];
    for (const checkpoint of CHECKPOINTS) {
      logger.log(`\n== Demo: the ${checkpoint.label} checkpoint (${checkpoint.model}) ==`);
      const options = parseRunOptions({
        backend: 'auto',
        ...(flags.instances ? {} : { instances: demoInstancesDir(), categories: 'W1' }),
        // 36 items can rule out a drop of 10 pp, not of 5 (the gate's default for larger runs).
        'min-drop': '0.1',
        ...flags,
        endpoint: server.url,
        // The built-in model is this process's own loopback server: nothing to check.
        preflight: 'false',
        model: checkpoint.model,
        'model-revision': checkpoint.revision,
        history,
        out: join(out, checkpoint.label),
      });
      const commit = demoCommit(checkpoint.label);
      const parent = 'after' in checkpoint ? demoCommit(checkpoint.after) : undefined;
      const at = { commit, ...(parent ? { parent } : {}) };
      const request: GateRequest = {
        options,
        event: { kind: 'push', sha: commit, ...(parent ? { parent } : {}) },
        record: at,
        trend: { last: 10 },
        howToRecord: 'the demo records its baseline checkpoint first',
      };
      const outcome = await runGate(request, {
        logger,
        lifecycle,
        commitGraph: {},
        ...(engines ? { engines } : {}),
      });
      const line = verdictLine(outcome.comparison);
      verdicts.push(`- the ${checkpoint.label} checkpoint: ${line}`);
      if (checkpoint.label === 'regressed') printed.push(outcome.report);
    }
    printed.push(
      [
        '',
        '## The demo, checkpoint by checkpoint',
        '',
        ...verdicts,
        '',
        `History: ${history} (open index.html); each run's results and report under ${out}/.`,
      ].join('\n'),
    );
    return printed;
  } finally {
    await server.close();
  }
}
