import * as core from '@actions/core';
import * as github from '@actions/github';
import { gate } from './action/gate.js';
import { readReportingInputs } from './action/inputs.js';
import { report } from './action/report.js';
import type { Lifecycle } from './config/assemble.js';
import { messageOf } from './errors.js';
import { ActionsArtifacts, type RunArtifacts } from './github/artifacts.js';
import { ActionsCacheStore } from './stores/actions-cache.js';
import type { CacheStore } from './stores/cache-store.js';

/**
 * The Action: `mode: gate` (default) runs and decides; `mode: report` posts
 * a fork PR's results from its artifact in a `workflow_run` workflow.
 */
export async function run(
  cacheStore: CacheStore = new ActionsCacheStore(core.info, core.warning),
  lifecycle: Lifecycle = {},
): Promise<void> {
  try {
    const reporting = readReportingInputs();
    const token = reporting['github-token'];
    const artifacts: RunArtifacts | undefined = token
      ? new ActionsArtifacts(github.context.repo, token)
      : undefined;
    if (reporting.mode === 'report') await report(reporting, { artifacts });
    else await gate(reporting, { cacheStore, lifecycle, artifacts });
  } catch (error) {
    core.setFailed(messageOf(error));
  }
}
