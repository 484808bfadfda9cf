import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readRegularFile } from '../../adapters/stores/read-file.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyStore } from '../config/history.js';
import { HISTORY_SCHEMA, indexRow } from '../../contracts/history.js';
import type { Results } from '../../contracts/results.js';
import { messageOf, UsageError } from '../../errors.js';
import type { RunArtifacts } from '../../adapters/github/artifacts.js';
import { GitHubReporter } from '../../adapters/github/reporter.js';
import { BranchHistory } from '../../adapters/history/branch.js';
import { mergeRow } from '../../adapters/history/index-merge.js';
import { renderReport } from '../../stages/report/markdown.js';
import { readResults } from '../../adapters/stores/results-dir.js';
import type { ReportingInputs } from '../config/action-inputs.js';
import {
  artifactName,
  publish,
  PULL_REQUEST_FILE,
  pullRequestFileSchema,
  setOutputs,
  suitePathMapper,
} from './publish.js';
import { trendRows } from '../trend.js';
import type { ActionEnv } from './runner.js';
import { GitHubWrites } from './writes.js';

/** Largest artifact file read (the artifact comes from a fork's run: untrusted). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

interface WorkflowRunPayload {
  id: number;
  head_sha: string;
  event?: string;
}

function readBounded(file: string, what: string): string {
  if (!statSync(file, { throwIfNoEntry: false }))
    throw new UsageError(`${what}: the artifact has no ${file}`);
  try {
    return readRegularFile(file, { maxBytes: MAX_FILE_BYTES, follow: false });
  } catch (error) {
    throw new UsageError(`${what}: ${(error as Error).message}`);
  }
}

/**
 * mode: report — in a `workflow_run` workflow (trusted: the base branch's
 * code, a token that may write), post what a fork PR's read-only run left as
 * its artifact. The artifact is untrusted: its files are size-bounded and
 * schema-checked; the PR it names must have as head the commit the finished
 * run built; the report is rendered again here from the results (escaped as
 * always), never taken from the artifact; the override label is read from
 * the PR itself.
 */
export async function report(
  reporting: ReportingInputs,
  deps: { env: ActionEnv; artifacts?: RunArtifacts },
): Promise<void> {
  const { env } = deps;
  const { context } = env;
  const run = context.payload.workflow_run as WorkflowRunPayload | undefined;
  if (context.eventName !== 'workflow_run' || !run)
    throw new UsageError(
      `mode: report posts the results of a finished run: run it in a workflow triggered by workflow_run (this event is ${context.eventName}); README: fork pull requests.`,
    );
  const token = reporting['github-token'];
  if (!token || !deps.artifacts)
    throw new UsageError(
      'mode: report needs github-token (with pull-requests: write, checks: write, actions: read).',
    );
  const reporter = new GitHubReporter(env.octokit(token), context.repo);
  const name = artifactName(reporting.name);
  const dir = mkdtempSync(join(tmpdir(), 'tracegate-report-'));
  try {
    if (!(await deps.artifacts.download(name, run.id, dir))) {
      env.info(
        `Workflow run ${run.id} left no artifact ${name}: nothing to report (it could post itself).`,
      );
      return;
    }
    const what = `artifact ${name} of workflow run ${run.id}`;
    let pull;
    try {
      pull = pullRequestFileSchema.parse(
        JSON.parse(readBounded(join(dir, PULL_REQUEST_FILE), what)),
      );
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(
        `${what}: ${PULL_REQUEST_FILE} is not a tracegate pull-request file (${messageOf(error)})`,
      );
    }
    readBounded(join(dir, 'results.json'), what);
    const results: Results = readResults(join(dir, 'results.json'), what);
    const comparison = results.comparison;
    if (!comparison) throw new UsageError(`${what}: results.json holds no comparison`);

    const pr = await reporter.pull(pull.number);
    if (pr.headSha !== run.head_sha || pull.headSha !== run.head_sha)
      throw new UsageError(
        `${what} names pull request #${pull.number} at ${pull.headSha.slice(0, 12)}, but that pull request's head is ` +
          `${pr.headSha.slice(0, 12)} and the run built ${run.head_sha.slice(0, 12)}: not posting.`,
      );
    const label = reporting['accept-label'];
    const accepted =
      comparison.verdict === 'fail' && label && pr.labels.includes(label)
        ? { label, note: `pull request #${pr.number}` }
        : undefined;
    const trusted: Results = { ...results, accepted };

    const history = reporting.history
      ? historyStore(
          reporting.history,
          { log: env.info, warn: env.warning },
          (branch) =>
            new BranchHistory(env.octokit(token), {
              ...context.repo,
              branch,
              warn: env.warning,
            }),
        )
      : undefined;
    const rows = reporting.trend > 0 ? await trendRows(history, { warn: env.warning }) : [];
    const text = renderReport(trusted, comparison, {
      ...(reporting.trend > 0
        ? {
            trend: {
              name: reporting.name,
              last: reporting.trend,
              branch: pr.baseRef,
              rows: mergeRow(
                rows,
                indexRow({
                  schema: HISTORY_SCHEMA,
                  name: reporting.name,
                  commit: run.head_sha,
                  recordedAt: results.finishedAt,
                  verdict: comparison.verdict,
                  ...(accepted ? { accepted } : {}),
                  results: trusted,
                }),
              ),
            },
          }
        : {}),
    });
    const posted = `${text}\n<sub>Posted from artifact ${name} of workflow run ${run.id} (a read-only run, as for pull requests from forks).</sub>\n`;
    await env.summary(posted);
    const writes = new GitHubWrites(env.warning);
    await publish(writes, reporter, {
      name: reporting.name,
      report: posted,
      results: trusted,
      comparison,
      onInconclusive: reporting['on-inconclusive'],
      pr: pr.number,
      comment: reporting.comment,
      ...(reporting['check-run']
        ? { check: { name: reporting['check-name'], headSha: run.head_sha } }
        : {}),
      pathOf: suitePathMapper(pull.suite),
    });
    if (writes.denied.length)
      throw new UsageError(
        `mode: report could not ${writes.denied.join(', ')}: give the workflow pull-requests: write and checks: write.`,
      );
    setOutputs(env.setOutput, trusted, comparison);
    env.info(`Posted ${comparison.verdict} for pull request #${pr.number} from ${what}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
