import * as core from '@actions/core';
import * as github from '@actions/github';
import type { EventContext } from '../../adapters/history/event.js';
import type { Octokit } from '../../adapters/github/reporter.js';

/**
 * Everything the Action reads from and writes to its runner, as one port:
 * the event, the environment, the log and outputs, the job summary and the
 * GitHub client. main.ts passes the real one (realActionEnv); a test passes
 * its own and reads what the Action said.
 */
export interface ActionEnv {
  context: EventContext & {
    repo: { owner: string; repo: string };
    runId: number;
  };
  /** An input's value as the runner passes it ('' when not given). */
  input(name: string): string;
  /** Masks a value in every later log line. */
  setSecret(value: string): void;
  /** The process environment (GITHUB_WORKSPACE, GITHUB_RUN_ATTEMPT). */
  env: Record<string, string | undefined>;
  info(message: string): void;
  warning(message: string): void;
  notice(message: string): void;
  setFailed(message: string): void;
  setOutput(name: string, value: unknown): void;
  /** Appends markdown to the job summary. */
  summary(markdown: string): Promise<void>;
  octokit(token: string): Octokit;
}

/** The runner's own: @actions/core and @actions/github. */
export function realActionEnv(): ActionEnv {
  return {
    context: github.context,
    input: (name) => core.getInput(name),
    setSecret: core.setSecret,
    env: process.env,
    info: core.info,
    warning: core.warning,
    notice: core.notice,
    setFailed: core.setFailed,
    setOutput: core.setOutput,
    summary: async (markdown) => {
      await core.summary.addRaw(markdown).write();
    },
    octokit: (token) => github.getOctokit(token),
  };
}
