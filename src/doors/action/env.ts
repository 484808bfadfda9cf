import * as core from '@actions/core';
import * as github from '@actions/github';
import type { ActionEnv } from '../../app/action/runner.js';
import { inertLog } from '../../util/inert-log.js';

/** The runner's own: @actions/core and @actions/github. */
export function realActionEnv(): ActionEnv {
  return {
    context: github.context,
    input: (name) => core.getInput(name),
    setSecret: core.setSecret,
    env: process.env,
    info: (message) => core.info(inertLog(message)),
    debug: (message) => core.debug(inertLog(message)),
    warning: core.warning,
    notice: core.notice,
    setFailed: core.setFailed,
    startGroup: core.startGroup,
    endGroup: core.endGroup,
    setOutput: core.setOutput,
    summary: async (markdown) => {
      await core.summary.addRaw(markdown).write();
    },
    octokit: (token) => github.getOctokit(token),
  };
}
