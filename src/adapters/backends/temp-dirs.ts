/**
 * The host temp directories a harvest makes (a plan, a build context, a
 * local run, a SWE-Flux harness view), named with the process's pid so that a later run can tell
 * those a killed process left behind (SIGKILL never runs the cleanups) and
 * remove them: the same rule as the containers' sweep (docker/engine.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KINDS = ['plan', 'build', 'local', 'view'] as const;
const OWNED = new RegExp(`^tracegate-(${KINDS.join('|')})-(\\d+)-`);

/** A fresh `tracegate-<kind>-<pid>-XXXXXX` directory in the temp dir. */
export function ownedTempDir(kind: (typeof KINDS)[number]): string {
  return mkdtempSync(join(tmpdir(), `tracegate-${kind}-${process.pid}-`));
}

/** Whether a process with this pid is running (one of another user counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the temp directories of tracegate processes that are gone; how many. */
export function sweepTempDirs(dir = tmpdir()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(OWNED.exec(name)?.[2]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    } catch {
      // another user's, or going away already: not ours to insist on
    }
  }
  return removed;
}
