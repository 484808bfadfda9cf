import type { Lifecycle } from '../config/assemble.js';
import type { ActionInputs, ReportingInputs } from '../config/action-inputs.js';
import { ActionsArtifacts, type RunArtifacts } from '../../adapters/github/artifacts.js';
import { ActionsCacheStore } from '../../adapters/stores/actions-cache.js';
import { gate, type GateDeps } from './gate.js';
import { report } from './report.js';
import type { ActionEnv } from './runner.js';

/**
 * The Action's use cases, built here from the runner's port: `mode: gate` (default) runs and
 * decides (with `shard: i/n`, one part of a matrix); `mode: merge` merges the matrix's parts and
 * decides; `mode: report` posts a fork PR's results from its artifact in a `workflow_run`
 * workflow. The toolkit's adapters (artifacts, the Actions cache) are made here, the one place;
 * a test passes its own cache store and engines.
 */
export async function runAction(
  inputs: { reporting: ReportingInputs; gate?: ActionInputs },
  env: ActionEnv,
  lifecycle: Lifecycle = {},
  overrides: Partial<Pick<GateDeps, 'cacheStore' | 'engines'>> = {},
): Promise<void> {
  const { reporting } = inputs;
  const token = reporting['github-token'];
  const artifacts: RunArtifacts | undefined = token
    ? new ActionsArtifacts(env.context.repo, token)
    : undefined;
  if (reporting.mode === 'report' || !inputs.gate) await report(reporting, { env, artifacts });
  else
    await gate(inputs.gate, {
      env,
      lifecycle,
      artifacts,
      cacheStore: overrides.cacheStore ?? new ActionsCacheStore(env.info, env.warning),
      ...(overrides.engines ? { engines: overrides.engines } : {}),
    });
}
