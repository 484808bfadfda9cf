import { runAction } from '../../app/action/index.js';
import type { GateDeps } from '../../app/action/gate.js';
import type { ActionEnv } from '../../app/action/runner.js';
import { readInputs, readReportingInputs } from '../../app/config/action-inputs.js';
import type { Lifecycle } from '../../app/config/assemble.js';
import { messageOf } from '../../errors.js';
import { realActionEnv } from './env.js';

/**
 * The Action's door: read the inputs from the runner (`env`, one port: inputs, event, log,
 * outputs, GitHub), call the use case of the mode (app/action), and turn anything it throws into
 * the step's failure, saying what to do.
 */
export async function run(
  lifecycle: Lifecycle = {},
  env: ActionEnv = realActionEnv(),
  overrides: Partial<Pick<GateDeps, 'cacheStore' | 'engines'>> = {},
): Promise<void> {
  try {
    const reporting = readReportingInputs(env);
    const gate = reporting.mode === 'report' ? undefined : readInputs(env, reporting);
    await runAction({ reporting, ...(gate ? { gate } : {}) }, env, lifecycle, overrides);
  } catch (error) {
    env.setFailed(messageOf(error, 'action'));
  }
}
