import * as core from '@actions/core';
import * as github from '@actions/github';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadSelection,
  toRunDeps,
  toRunInput,
  topUpPool,
  type Lifecycle,
} from '../config/assemble.js';
import { baselineSource, historyStore, recordRun } from '../config/history.js';
import type { IndexRow } from '../contracts/history.js';
import { messageOf, UsageError } from '../errors.js';
import { GitHubReporter, type Octokit } from '../github/reporter.js';
import type { RunArtifacts } from '../github/artifacts.js';
import { BranchHistory } from '../history/branch.js';
import type { BaselineEvent } from '../history/baseline.js';
import { githubCommitGraph } from '../history/commit-graph.js';
import { baselineEventOf, branchOf } from '../history/event.js';
import type { HistoryStore } from '../history/store.js';
import { runPipeline } from '../pipeline.js';
import { cacheKeys } from '../stores/actions-cache.js';
import type { CacheKeys, CacheStore } from '../stores/cache-store.js';
import { cacheLayout } from '../stores/layout.js';
import type { ReportingInputs } from './inputs.js';
import { readInputs } from './inputs.js';
import {
  artifactName,
  checkOf,
  publish,
  PULL_REQUEST_FILE,
  PULL_REQUEST_SCHEMA,
  setOutputs,
  suitePathMapper,
  workspacePath,
  type PullRequestFile,
} from './publish.js';
import { GitHubWrites } from './writes.js';

interface PullPayload {
  number: number;
  head: { sha: string };
  labels?: { name?: string }[];
}

const logger = { log: core.info, warn: core.warning };

/** The data branch or directory the baseline comes from and push runs go to. */
function openHistory(spec: string, octokit: Octokit | undefined): HistoryStore {
  return historyStore(spec, logger, (branch) => {
    if (!octokit)
      throw new UsageError(
        `input history: ${spec} is written through the GitHub API: give github-token.`,
      );
    return new BranchHistory(octokit, { ...github.context.repo, branch, warn: core.warning });
  });
}

/** The history's rows for the trend; a history that cannot be read only costs the chart. */
export async function trendRows(history: HistoryStore | undefined): Promise<IndexRow[]> {
  if (!history) return [];
  return history.index().catch((error: unknown) => {
    core.warning(`tracegate could not read the history for the trend: ${messageOf(error)}`);
    return [];
  });
}

/**
 * The override: the label on this PR (from the event), or — on a push — on
 * the merged PR the commit came from. Only people who may label (triage and
 * up) can add it; it accepts a failing verdict, visibly and on the record.
 */
async function acceptance(
  label: string,
  pr: PullPayload | undefined,
  event: BaselineEvent,
  reporter: GitHubReporter | undefined,
): Promise<{ label: string; note: string } | undefined> {
  if (!label) return undefined;
  if (pr) {
    const labels = (pr.labels ?? []).map((l) => l.name);
    return labels.includes(label) ? { label, note: `pull request #${pr.number}` } : undefined;
  }
  if (event.kind !== 'push' || !reporter) return undefined;
  try {
    const merged = (await reporter.pullsOf(event.sha)).find(
      (p) => p.merged && p.labels.includes(label),
    );
    return merged ? { label, note: `pull request #${merged.number}, merged` } : undefined;
  } catch (error) {
    core.warning(
      `tracegate could not read the pull requests of ${event.sha.slice(0, 12)} ` +
        `(a label there could accept a failure): ${messageOf(error)}`,
    );
    return undefined;
  }
}

/**
 * mode: gate — read inputs, select once, restore the shared cache for that
 * selection, run the pipeline against the resolved baseline, record push
 * runs in the history, report to GitHub (or, with a read-only token, to the
 * job summary and an artifact), set outputs, save the cache.
 */
export async function gate(
  reporting: ReportingInputs,
  deps: { cacheStore: CacheStore; lifecycle: Lifecycle; artifacts?: RunArtifacts },
): Promise<void> {
  let saved: { paths: string[]; keys: CacheKeys } | undefined;
  const writes = new GitHubWrites();
  let failCheck: ((message: string) => Promise<void>) | undefined;
  try {
    const inputs = readInputs(reporting);
    const { context } = github;
    const pr = context.payload.pull_request as PullPayload | undefined;
    const headSha = pr?.head.sha ?? context.sha;
    const token = reporting['github-token'];
    const octokit = token ? github.getOctokit(token) : undefined;
    const reporter = octokit ? new GitHubReporter(octokit, context.repo) : undefined;
    const checkId =
      reporter && reporting['check-run']
        ? await writes.attempt('create a check run', () =>
            reporter.startCheck(reporting['check-name'], headSha),
          )
        : undefined;
    if (reporter && checkId !== undefined)
      failCheck = (message) =>
        reporter.completeCheck(checkId, 'failure', 'tracegate could not finish', message);

    const { suite, selected } = loadSelection(inputs.run, logger);
    const input = toRunInput(
      inputs.run,
      selected,
      headSha,
      suite.rejected,
      topUpPool(suite, inputs.run, selected),
    );
    // Keys from the same selection the run uses: the tracer, the recipes and the instances' bytes.
    saved = {
      paths: cacheLayout(inputs.run.cache).shared,
      keys: cacheKeys(
        [
          input.tracerDigest,
          inputs.run['base-image'] ?? 'default-base',
          ...selected.map((s) => s.contentHash),
        ],
        input.model.revision,
        `${context.runId}-${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`,
      ),
    };
    await deps.cacheStore.restore(saved.paths, saved.keys);

    const history = inputs.run.history ? openHistory(inputs.run.history, octokit) : undefined;
    const event = baselineEventOf(context);
    const baseline = baselineSource(
      inputs.run,
      history,
      event,
      octokit ? githubCommitGraph(octokit, context.repo) : {},
      input.scorer,
      logger,
      'a push run of this workflow on the base branch records one',
    );
    const accept = await acceptance(reporting['accept-label'], pr, event, reporter);
    const rows = reporting.trend > 0 ? await trendRows(history) : [];
    const outcome = await runPipeline(
      {
        ...input,
        ...(accept ? { accept } : {}),
        ...(reporting.trend > 0
          ? {
              report: {
                trend: {
                  rows,
                  name: inputs.run.name,
                  last: reporting.trend,
                  ...(event.kind === 'pull_request' ? { branch: event.baseRef } : {}),
                  ...(event.kind === 'push' && event.branch ? { branch: event.branch } : {}),
                },
              },
            }
          : {}),
      },
      toRunDeps(inputs.run, logger, suite, deps.lifecycle, baseline),
    );
    const { results, comparison, report } = outcome;
    if (history && event.kind === 'push' && !pr) {
      await recordRun(
        history,
        {
          name: inputs.run.name,
          commit: event.sha,
          parent: event.parent,
          branch: branchOf(context),
          retention: inputs.run.retention,
        },
        results,
        logger,
        results.accepted,
      ).catch((error: unknown) =>
        core.warning(`tracegate could not record this run in the history: ${messageOf(error)}`),
      );
    }

    await core.summary.addRaw(report).write();
    const workspace = realWorkspace();
    const suiteInWorkspace = workspacePath(suite.reader.root, workspace);
    if (reporter) {
      await publish(writes, reporter, {
        name: inputs.run.name,
        report,
        results,
        comparison,
        onInconclusive: inputs.run['on-inconclusive'],
        ...(pr ? { pr: pr.number } : {}),
        comment: reporting.comment,
        ...(checkId !== undefined
          ? { check: { id: checkId, name: reporting['check-name'], headSha } }
          : {}),
        pathOf: suitePathMapper(suiteInWorkspace),
      });
      failCheck = undefined;
    }
    if (writes.denied.length && pr) {
      await leaveArtifact(deps.artifacts, inputs.run.name, inputs.run.out, writes.denied, {
        schema: PULL_REQUEST_SCHEMA,
        name: inputs.run.name,
        number: pr.number,
        headSha,
        ...(suiteInWorkspace !== undefined ? { suite: suiteInWorkspace } : {}),
      });
    } else if (writes.denied.length) {
      core.notice(
        `tracegate could not ${writes.denied.join(', ')} (the token may not write); the report is in the job summary.`,
      );
    }

    setOutputs(results, comparison, { out: inputs.run.out });
    const { conclusion } = checkOf(results, comparison, inputs.run['on-inconclusive']);
    const why = comparison.summary;
    if (comparison.verdict === 'fail' && results.accepted)
      core.warning(
        `tracegate: fail, accepted by the label ${results.accepted.label} (${results.accepted.note ?? ''}) — ${why}`,
      );
    else if (comparison.verdict === 'fail') core.setFailed(`tracegate: fail — ${why}`);
    else if (conclusion === 'failure')
      core.setFailed(`tracegate: inconclusive, and on-inconclusive is fail — ${why}`);
    else if (comparison.verdict === 'inconclusive')
      core.warning(`tracegate: inconclusive — ${why}`);
  } catch (error) {
    core.setFailed(messageOf(error));
    await failCheck?.(messageOf(error)).catch(() => {});
  } finally {
    // Also after a failed run, so a re-run does not redo its work.
    if (saved) await deps.cacheStore.save(saved.paths, saved.keys);
  }
}

function realWorkspace(): string {
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
  try {
    return realpathSync(workspace);
  } catch {
    return workspace;
  }
}

/**
 * A fork PR's token may not post: the results go up as artifact
 * `tracegate-NAME`, for a `workflow_run` workflow with `mode: report` to post.
 */
async function leaveArtifact(
  artifacts: RunArtifacts | undefined,
  name: string,
  out: string,
  denied: string[],
  pull: PullRequestFile,
): Promise<void> {
  const why = `tracegate could not ${denied.join(', ')} (the token is read-only, as on pull requests from forks)`;
  writeFileSync(join(out, PULL_REQUEST_FILE), `${JSON.stringify(pull, null, 2)}\n`);
  const artifact = artifactName(name);
  if (!artifacts) {
    core.notice(`${why}. The report is in the job summary.`);
    return;
  }
  try {
    const files = ['results.json', 'report.md', PULL_REQUEST_FILE].map((f) => join(out, f));
    const id = await artifacts.upload(artifact, out, files, 14);
    core.notice(
      `${why}. The report is in the job summary and the results in artifact ${artifact} (id ${id}); ` +
        'a workflow_run workflow running tracegate with mode: report posts them (README: fork pull requests).',
    );
  } catch (error) {
    core.notice(`${why}. The report is in the job summary.`);
    core.warning(`tracegate could not upload artifact ${artifact}: ${messageOf(error)}`);
  }
}
