// Every git process tracegate starts goes through here (as actions/checkout's execGit): the
// commit graph of a local clone, environment sources' fetch and archive, generate's --repo.
import { execFile, execFileSync } from 'node:child_process';

export interface GitRun {
  /** git's exit status (0: success). */
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Bytes of output kept (default 1 MiB); more fails the call. */
  maxBuffer?: number;
}

/**
 * Runs `git ARGS`: resolves with its status and trimmed output whatever the status; rejects
 * only when git could not run at all (not installed, output over `maxBuffer`), saying so.
 */
export function git(args: readonly string[], options: GitOptions = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd: options.cwd, env: options.env, maxBuffer: options.maxBuffer ?? 1 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        if (error && code === -1)
          reject(new Error(`git ${args[0]} could not run (${error.message}): is git installed?`));
        else resolve({ code, stdout: String(stdout).trim(), stderr: String(stderr).trim() });
      },
    );
  });
}

/** `git ARGS` waited for: its trimmed stdout, or undefined when it failed or could not run. */
export function gitOutput(args: readonly string[], options: GitOptions = {}): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: options.cwd,
      env: options.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: options.maxBuffer ?? 1 << 20,
    }).trim();
  } catch {
    return undefined;
  }
}
