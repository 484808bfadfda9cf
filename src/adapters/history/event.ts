import type { BaselineEvent } from './baseline.js';

/** The part of `@actions/github`'s `context` the baseline depends on. */
export interface EventContext {
  eventName: string;
  sha: string;
  /** e.g. `refs/heads/main`. */
  ref: string;
  payload: Record<string, unknown>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/**
 * The baseline event of a workflow run: a pull request (merge base of its
 * base and head), a merge queue group (its base commit), or anything else at
 * a commit (push, schedule, dispatch: the first parent, walking back).
 */
export function baselineEventOf(context: EventContext): BaselineEvent {
  const { payload } = context;
  const pr = payload.pull_request as
    { number?: number; base?: { ref?: string; sha?: string }; head?: { sha?: string } } | undefined;
  if (pr && typeof pr.number === 'number') {
    return {
      kind: 'pull_request',
      number: pr.number,
      baseRef: str(pr.base?.ref) ?? 'main',
      baseSha: str(pr.base?.sha) ?? '',
      headSha: str(pr.head?.sha) ?? context.sha,
    };
  }
  const branch = context.ref.startsWith('refs/heads/')
    ? context.ref.slice('refs/heads/'.length)
    : undefined;
  const group = payload.merge_group as { base_sha?: string; head_sha?: string } | undefined;
  if (group && str(group.head_sha)) {
    const parent = str(group.base_sha);
    return { kind: 'push', sha: group.head_sha!, ...(parent ? { parent } : {}) };
  }
  const before = str(payload.before);
  return {
    kind: 'push',
    sha: context.sha,
    ...(branch ? { branch } : {}),
    // A new branch's push has no previous head (all zeros).
    ...(before && /^[0-9a-f]{40}$/.test(before) && !/^0+$/.test(before) ? { before } : {}),
  };
}

/** The branch a run's entry is recorded on (what `latest entry on main` looks for). */
export function branchOf(context: EventContext): string | undefined {
  const pr = context.payload.pull_request as { head?: { ref?: string } } | undefined;
  if (pr) return str(pr.head?.ref);
  return context.ref.startsWith('refs/heads/')
    ? context.ref.slice('refs/heads/'.length)
    : undefined;
}
