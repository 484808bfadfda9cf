import { gate, type GateDeps } from './gate.js';
import { realActionEnv, type ActionEnv } from './env.js';
import { readReportingInputs } from './inputs.js';
import { report } from './report.js';
import type { Lifecycle } from '../../app/config/assemble.js';
import { messageOf } from '../../errors.js';
import { ActionsArtifacts, type RunArtifacts } from '../../adapters/github/artifacts.js';
import { ActionsCacheStore } from '../../adapters/stores/actions-cache.js';

/**
 * The Action: `mode: gate` (default) runs and decides (with `shard: i/n`, one
 * part of a matrix); `mode: merge` merges the matrix's parts and decides;
 * `mode: report` posts a fork PR's results from its artifact in a
 * `workflow_run` workflow. The
 * runner's side (inputs, event, log, outputs, GitHub) is one port, `env`.
 */
export async function run(
  lifecycle: Lifecycle = {},
  env: ActionEnv = realActionEnv(),
  overrides: Partial<Pick<GateDeps, 'cacheStore' | 'engines'>> = {},
): Promise<void> {
  try {
    const reporting = readReportingInputs(env);
    const token = reporting['github-token'];
    const artifacts: RunArtifacts | undefined = token
      ? new ActionsArtifacts(env.context.repo, token)
      : undefined;
    if (reporting.mode === 'report') await report(reporting, { env, artifacts });
    else
      await gate(reporting, {
        env,
        lifecycle,
        artifacts,
        cacheStore: overrides.cacheStore ?? new ActionsCacheStore(env.info, env.warning),
        ...(overrides.engines ? { engines: overrides.engines } : {}),
      });
  } catch (error) {
    env.setFailed(messageOf(error, 'action'));
  }
}
