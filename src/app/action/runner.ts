import type { EventContext } from '../../adapters/history/event.js';
import type { Octokit } from '../../adapters/github/reporter.js';
import type { Logger } from '../config/assemble.js';
import { inertLog } from '../../util/inert-log.js';

/**
 * Everything the Action reads from and writes to its runner, as one port:
 * the event, the environment, the log and outputs, the job summary and the
 * GitHub client. The door passes the real one (doors/action/env.ts); a test passes
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
  /** A line shown only with the runner's step debug logging on (`::debug::`). */
  debug?(message: string): void;
  warning(message: string): void;
  notice(message: string): void;
  setFailed(message: string): void;
  /** Opens a collapsible group of log lines (`::group::`); groups do not nest. */
  startGroup(name: string): void;
  /** Closes the open group (`::endgroup::`). */
  endGroup(): void;
  setOutput(name: string, value: unknown): void;
  /** Appends markdown to the job summary. */
  summary(markdown: string): Promise<void>;
  octokit(token: string): Octokit;
}

/**
 * The run's log as the Action shows it: each phase the application names
 * (selection, endpoint check, harvest, queries, compare and report) is a log
 * group, and the next phase closes the one before. `close` ends the last;
 * the door calls it before its own lines (a failure, the verdict).
 */
export function groupedLogger(
  env: Pick<ActionEnv, 'info' | 'debug' | 'warning' | 'startGroup' | 'endGroup'>,
): Logger & { close(): void } {
  let open = false;
  const close = (): void => {
    if (open) env.endGroup();
    open = false;
  };
  return {
    // Every line of the run's log is inert: a suite's or a reply's text cannot command the runner.
    log: (message) => env.info(inertLog(message)),
    warn: (message) => env.warning(message),
    debug: (message) => env.debug?.(inertLog(message)),
    phase: (name) => {
      close();
      env.startGroup(name);
      open = true;
    },
    close,
  };
}
