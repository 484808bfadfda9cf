import * as core from '@actions/core';
import * as github from '@actions/github';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKeys, restoreCacheDir, saveCacheDir, type CacheKeys } from './action/oracle-cache.js';
import { readInputs } from './action/inputs.js';
import { CONCLUSION, GitHubReporter, tolerantly } from './action/report.js';
import { toRunConfig, toRunDeps } from './config/assemble.js';
import { messageOf } from './errors.js';
import { tracerDigest } from './harvest/tracer-digest.js';
import { tracerDir } from './paths.js';
import { loadSelection, runPipeline } from './pipeline.js';

/** The Action: read inputs, run the pipeline, report to GitHub, set outputs. */
export async function run(): Promise<void> {
  let cache: { dir: string; keys: CacheKeys } | undefined;
  let finishCheck: ((conclusion: 'failure', summary: string) => Promise<void>) | undefined;
  try {
    const inputs = readInputs();
    const { context } = github;
    const pr = context.payload.pull_request as
      { number: number; head: { sha: string } } | undefined;
    const headSha = pr?.head.sha ?? context.sha;
    const config = toRunConfig(inputs.run, headSha);
    const deps = toRunDeps(inputs.run, { log: core.info, warn: core.warning });

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

    const selected = loadSelection(config.instancesDir, config.selection);
    cache = {
      dir: config.cacheDir,
      keys: cacheKeys(
        [tracerDigest(tracerDir()), config.baseImage, ...selected.map((s) => s.contentHash)],
        config.model.revision,
        `${context.runId}-${process.env.GITHUB_RUN_ATTEMPT ?? '1'}`,
      ),
    };
    await restoreCacheDir(cache.dir, cache.keys);

    const outcome = await runPipeline(config, deps);

    const { verdict } = outcome.comparison;
    await core.summary.addRaw(outcome.report).write();
    if (reporter && pr && inputs.comment) {
      await tolerantly('comment on the pull request', () =>
        reporter.upsertComment(pr.number, outcome.report),
      );
    }
    if (reporter && checkId !== undefined) {
      const { summary } = outcome.results;
      const title = `${verdict}: ${(summary.accuracy * 100).toFixed(1)}% (${summary.correct}/${summary.total})`;
      await tolerantly('update the check run', () =>
        reporter.completeCheck(checkId, CONCLUSION[verdict], title, outcome.report),
      );
      finishCheck = undefined;
    }
    core.setOutput('score', outcome.results.summary.accuracy);
    core.setOutput('verdict', verdict);
    core.setOutput('results', join(config.outDir, 'results.json'));
    core.setOutput('report', join(config.outDir, 'report.md'));
    if (verdict === 'fail') {
      const regressed = outcome.comparison.kinds
        .filter((k) => k.status === 'regressed')
        .map((k) => k.kind);
      core.setFailed(`tracegate: significant regression in ${regressed.join(', ')}`);
    }
  } catch (error) {
    core.setFailed(messageOf(error));
    await finishCheck?.('failure', messageOf(error)).catch(() => {});
  } finally {
    if (cache && existsSync(cache.dir)) await saveCacheDir(cache.dir, cache.keys);
  }
}
