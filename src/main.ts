import * as core from '@actions/core';
import * as github from '@actions/github';
import { join } from 'node:path';
import { readInputs } from './action/inputs.js';
import {
  loadSelection,
  toRunDeps,
  toRunInput,
  topUpPool,
  type Lifecycle,
} from './config/assemble.js';
import { baselineSource, historyStore, recordRun } from './config/history.js';
import { messageOf, UsageError } from './errors.js';
import { BranchHistory } from './history/branch.js';
import { githubCommitGraph } from './history/commit-graph.js';
import { baselineEventOf, branchOf } from './history/event.js';
import { conclusionFor, GitHubReporter, tolerantly } from './github/tolerantly.js';
import { runPipeline } from './pipeline.js';
import { ActionsCacheStore, cacheKeys } from './stores/actions-cache.js';
import type { CacheKeys, CacheStore } from './stores/cache-store.js';
import { cacheLayout } from './stores/layout.js';

/**
 * The Action: read inputs, select once, restore the shared cache for that
 * selection, run the pipeline, report to GitHub, set outputs, save the cache.
 */
export async function run(
  cacheStore: CacheStore = new ActionsCacheStore(core.info, core.warning),
  lifecycle: Lifecycle = {},
): Promise<void> {
  let saved: { paths: string[]; keys: CacheKeys } | undefined;
  let finishCheck: ((conclusion: 'failure', summary: string) => Promise<void>) | undefined;
  try {
    const inputs = readInputs();
    const { context } = github;
    const pr = context.payload.pull_request as
      { number: number; head: { sha: string } } | undefined;
    const headSha = pr?.head.sha ?? context.sha;
    const logger = { log: core.info, warn: core.warning };

    const reporter = inputs.githubToken
      ? new GitHubReporter(github.getOctokit(inputs.githubToken), context.repo)
      : undefined;
    const checkId =
      reporter && inputs.checkRun
        ? await tolerantly('create a check run', () =>
            reporter.startCheck(inputs.checkName, headSha),
          )
        : undefined;
    if (reporter && checkId !== undefined) {
      finishCheck = (conclusion, summary) =>
        reporter.completeCheck(checkId, conclusion, 'tracegate could not finish', summary);
    }

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
    await cacheStore.restore(saved.paths, saved.keys);

    // History: the data branch (or a directory) the baseline comes from and this run goes to.
    const octokit = inputs.githubToken ? github.getOctokit(inputs.githubToken) : undefined;
    const history = inputs.run.history
      ? historyStore(inputs.run.history, logger, (branch) => {
          if (!octokit)
            throw new UsageError(
              `input history: ${inputs.run.history} is written through the GitHub API: give github-token.`,
            );
          return new BranchHistory(octokit, { ...context.repo, branch, warn: core.warning });
        })
      : undefined;
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
    const outcome = await runPipeline(
      input,
      toRunDeps(inputs.run, logger, suite, lifecycle, baseline),
    );
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
        outcome.results,
        logger,
      ).catch((error: unknown) =>
        core.warning(`tracegate could not record this run in the history: ${messageOf(error)}`),
      );
    }

    const { verdict, summary: why } = outcome.comparison;
    const onInconclusive = inputs.run['on-inconclusive'];
    const conclusion = conclusionFor(verdict, onInconclusive);
    await core.summary.addRaw(outcome.report).write();
    if (reporter && pr && inputs.comment) {
      await tolerantly('comment on the pull request', () =>
        reporter.upsertComment(pr.number, outcome.report, inputs.run.name),
      );
    }
    if (reporter && checkId !== undefined) {
      const { summary } = outcome.results;
      const title = `${verdict}: ${(summary.accuracy * 100).toFixed(1)}% (${summary.correct}/${summary.total})`;
      await tolerantly('update the check run', () =>
        reporter.completeCheck(checkId, conclusion, title, outcome.report),
      );
      finishCheck = undefined;
    }
    core.setOutput('score', outcome.results.summary.accuracy);
    core.setOutput('verdict', verdict);
    core.setOutput('results', join(inputs.run.out, 'results.json'));
    core.setOutput('report', join(inputs.run.out, 'report.md'));
    if (verdict === 'fail') core.setFailed(`tracegate: fail — ${why}`);
    else if (conclusion === 'failure')
      core.setFailed(`tracegate: inconclusive, and on-inconclusive is fail — ${why}`);
    else if (verdict === 'inconclusive') core.warning(`tracegate: inconclusive — ${why}`);
  } catch (error) {
    core.setFailed(messageOf(error));
    await finishCheck?.('failure', messageOf(error)).catch(() => {});
  } finally {
    // Also after a failed run, so a re-run does not redo its work.
    if (saved) await cacheStore.save(saved.paths, saved.keys);
  }
}
