import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { pct } from '../../stages/compare/describe.js';
import type { Comparison, OnInconclusive } from '../../contracts/comparison.js';
import type { Results } from '../../contracts/results.js';
import { conclusionFor } from '../../adapters/github/conclusion.js';
import type { CheckConclusion, GitHubReporter } from '../../adapters/github/reporter.js';
import { regressionAnnotations, regressions } from '../../stages/report/regressions.js';
import type { GitHubWrites } from './writes.js';

/** The artifact a run that could not post leaves for `mode: report`. */
export const artifactName = (name: string): string => `tracegate-${name}`;
/** The artifact a shard's results go up as: `tracegate-NAME-shard-I-of-N` (the merge finds them). */
export const shardArtifactName = (name: string, index: number, count: number): string =>
  `${shardArtifactPrefix(name)}${index}-of-${count}`;
export const shardArtifactPrefix = (name: string): string => `tracegate-${name}-shard-`;

/** The file of that artifact that says which PR and commit the results are for. */
export const PULL_REQUEST_FILE = 'pull-request.json';
export const PULL_REQUEST_SCHEMA = 'tracegate/pull-request@1';
export const pullRequestFileSchema = z.object({
  schema: z.literal(PULL_REQUEST_SCHEMA),
  name: z.string(),
  number: z.number().int().positive(),
  headSha: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** The suite root relative to the workspace, when inside it (annotations point into it). */
  suite: z.string().optional(),
});
export type PullRequestFile = z.infer<typeof pullRequestFileSchema>;

/** Regressions listed in the `regressions` output (the rest are in results.json). */
const MAX_OUTPUT_REGRESSIONS = 100;

/**
 * A path relative to the workspace, with / separators, or undefined when it
 * is outside (the bundled suite lives with the Action, not in the repository).
 */
export function workspacePath(absolute: string, workspace: string): string | undefined {
  const rel = relative(workspace, absolute);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

/** Maps a record's file (relative to the suite root) to a repository path; rejects anything that climbs. */
export function suitePathMapper(suite: string | undefined): (file: string) => string | undefined {
  return (file) => {
    if (suite === undefined) return undefined;
    const joined = suite ? `${suite}/${file}` : file;
    const segments = joined.split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..') || joined.includes('\\'))
      return undefined;
    return joined;
  };
}

/** What a finished run shows GitHub: the check's conclusion and title. */
export function checkOf(
  results: Results,
  comparison: Comparison,
  onInconclusive: OnInconclusive,
): { conclusion: CheckConclusion; title: string } {
  const accepted = Boolean(results.accepted) && comparison.verdict === 'fail';
  const { summary } = results;
  return {
    conclusion: conclusionFor(comparison.verdict, onInconclusive, accepted),
    title:
      `${comparison.verdict}${accepted ? ' (accepted by label)' : ''}: ` +
      `${pct(summary.accuracy)} (${summary.correct}/${summary.total})`,
  };
}

/**
 * Posts a finished run: the sticky comment on the PR and the check (completed
 * now: `checkId` from the start of the run, else created), with an annotation
 * on each regressed item's instance file.
 */
export async function publish(
  writes: GitHubWrites,
  reporter: GitHubReporter,
  post: {
    name: string;
    report: string;
    results: Results;
    comparison: Comparison;
    onInconclusive: OnInconclusive;
    pr?: number;
    comment: boolean;
    check?: { id?: number; name: string; headSha: string };
    pathOf: (file: string) => string | undefined;
  },
): Promise<void> {
  if (post.pr !== undefined && post.comment) {
    const pr = post.pr;
    await writes.attempt('comment on the pull request', () =>
      reporter.upsertComment(pr, post.report, post.name),
    );
  }
  const check = post.check;
  if (!check) return;
  const { conclusion, title } = checkOf(post.results, post.comparison, post.onInconclusive);
  const annotations = regressionAnnotations(post.results, post.comparison, post.pathOf);
  const id = check.id;
  if (id === undefined)
    await writes.attempt('create a check run', () =>
      reporter.postCheck(check.name, check.headSha, conclusion, title, post.report, annotations),
    );
  else
    await writes.attempt('update the check run', () =>
      reporter.completeCheck(id, conclusion, title, post.report, annotations),
    );
}

/** The Action's outputs of a finished run. */
export function setOutputs(
  setOutput: (name: string, value: unknown) => void,
  results: Results,
  comparison: Comparison,
  files?: { out: string },
): void {
  const listed = regressions(results, comparison);
  setOutput('score', results.summary.accuracy);
  setOutput('verdict', comparison.verdict);
  setOutput('regressions', JSON.stringify(listed.slice(0, MAX_OUTPUT_REGRESSIONS)));
  setOutput('baseline-sha', comparison.baseline?.commit ?? '');
  setOutput('accepted', results.accepted && comparison.verdict === 'fail' ? 'true' : 'false');
  if (files) {
    setOutput('results', join(files.out, 'results.json'));
    setOutput('report', join(files.out, 'report.md'));
  }
}
