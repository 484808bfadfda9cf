import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeGate, runGate } from '../run-gate.js';
import type { Engines, Lifecycle } from '../config/assemble.js';
import { messageOf, UsageError } from '../../errors.js';
import { GitHubReporter, type Octokit } from '../../adapters/github/reporter.js';
import type { RunArtifacts } from '../../adapters/github/artifacts.js';
import { BranchHistory } from '../../adapters/history/branch.js';
import type { BaselineEvent } from '../../adapters/history/baseline.js';
import { githubCommitGraph } from '../../adapters/history/commit-graph.js';
import { baselineEventOf, branchOf } from '../../adapters/history/event.js';
import type { CacheStore } from '../../adapters/stores/cache-store.js';
import { groupedLogger, type ActionEnv } from './runner.js';
import type { ActionInputs, ReportingInputs } from '../config/action-inputs.js';
import {
  artifactName,
  checkOf,
  shardArtifactName,
  shardArtifactPrefix,
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
  env: ActionEnv,
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
    env.warning(
      `tracegate could not read the pull requests of ${event.sha.slice(0, 12)} ` +
        `(a label there could accept a failure): ${messageOf(error)}`,
    );
    return undefined;
  }
}

/** What the Action's gate is built from; main.ts passes the runner's own. */
export interface GateDeps {
  env: ActionEnv;
  cacheStore: CacheStore;
  lifecycle: Lifecycle;
  artifacts?: RunArtifacts;
  engines?: Engines;
}

/**
 * mode: gate — read inputs, open the check run, call the gate run (the same
 * application the CLI calls: select, restore the shared cache, compare with
 * the resolved baseline, record push runs, save the cache), then report to
 * GitHub (or, with a read-only token, to the job summary and an artifact),
 * set outputs and decide the step's status.
 */
export async function gate(inputs: ActionInputs, deps: GateDeps): Promise<void> {
  const { env } = deps;
  const logger = groupedLogger(env);
  const writes = new GitHubWrites(env.warning);
  let failCheck: ((message: string) => Promise<void>) | undefined;
  const { reporting } = inputs;
  try {
    const { context } = env;
    const registryCredentials = registryAccess(
      inputs.run,
      context.eventName,
      reporting['github-token'],
      env,
    );
    const pr = context.payload.pull_request as PullPayload | undefined;
    const headSha = pr?.head.sha ?? context.sha;
    const token = reporting['github-token'];
    const octokit = token ? env.octokit(token) : undefined;
    const reporter = octokit ? new GitHubReporter(octokit, context.repo) : undefined;
    // A shard posts nothing: the merge job posts the one comment and check of the run.
    const shard = inputs.run.shard;
    const checkId =
      reporter && reporting['check-run'] && !shard
        ? await writes.attempt('create a check run', () =>
            reporter.startCheck(reporting['check-name'], headSha),
          )
        : undefined;
    if (reporter && checkId !== undefined)
      failCheck = (message) =>
        reporter.completeCheck(checkId, 'failure', 'tracegate could not finish', message);

    const event = baselineEventOf(context);
    const request = {
      options: inputs.run,
      event,
      ...(event.kind === 'push' && !pr
        ? {
            record: {
              commit: event.sha,
              ...(event.parent ? { parent: event.parent } : {}),
              ...(branchOf(context) ? { branch: branchOf(context)! } : {}),
            },
          }
        : {}),
      trend: {
        last: reporting.trend,
        ...(event.kind === 'pull_request' ? { branch: event.baseRef } : {}),
        ...(event.kind === 'push' && event.branch ? { branch: event.branch } : {}),
      },
      accept: await acceptance(reporting['accept-label'], pr, event, reporter, env),
      howToRecord: 'a push run of this workflow on the base branch records one',
      recordBestEffort: true,
    };
    const ports = {
      logger,
      lifecycle: deps.lifecycle,
      commitGraph: octokit ? githubCommitGraph(octokit, context.repo) : {},
      branchHistory: (branch: string) => branchHistory(env, octokit, inputs.run.history!, branch),
      sharedCache: {
        store: deps.cacheStore,
        runId: `${context.runId}-${env.env.GITHUB_RUN_ATTEMPT ?? '1'}`,
        imageBudget: reporting['image-cache'],
      },
      ...(deps.engines || registryCredentials
        ? { engines: { ...deps.engines, ...(registryCredentials ? { registryCredentials } : {}) } }
        : {}),
    };
    const outcome =
      reporting.mode === 'merge'
        ? await mergeGate(
            { ...request, dirs: [await shardsDir(reporting, inputs.run.name, deps, env)] },
            ports,
          )
        : await runGate(request, ports);
    const { results, comparison, report } = outcome;

    await env.summary(report);
    if (shard) {
      logger.close();
      await uploadShard(env, deps.artifacts, inputs.run.name, inputs.run.out, shard);
      env.setOutput('score', results.summary.accuracy);
      env.setOutput('results', join(inputs.run.out, 'results.json'));
      env.setOutput('report', join(inputs.run.out, 'report.md'));
      return;
    }
    const suiteInWorkspace = workspacePath(outcome.suiteRoot, realWorkspace(env));
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
      await leaveArtifact(env, deps.artifacts, inputs.run.name, inputs.run.out, writes.denied, {
        schema: PULL_REQUEST_SCHEMA,
        name: inputs.run.name,
        number: pr.number,
        headSha,
        ...(suiteInWorkspace !== undefined ? { suite: suiteInWorkspace } : {}),
      });
    } else if (writes.denied.length) {
      env.notice(
        `tracegate could not ${writes.denied.join(', ')} (the token may not write); the report is in the job summary.`,
      );
    }

    // The verdict's own lines stand outside the last group, where they are seen.
    logger.close();
    setOutputs(env.setOutput, results, comparison, { out: inputs.run.out });
    decide(env, outcome, inputs.run['on-inconclusive']);
  } catch (error) {
    logger.close();
    const message = messageOf(error, 'action');
    env.setFailed(message);
    await failCheck?.(message).catch(() => {});
  }
}

/** The step's status from the verdict: failed, warned, or quiet. */
function decide(
  env: ActionEnv,
  { results, comparison }: { results: GateOutcomeResults; comparison: GateOutcomeComparison },
  onInconclusive: Parameters<typeof checkOf>[2],
): void {
  const { conclusion } = checkOf(results, comparison, onInconclusive);
  const why = comparison.summary;
  if (comparison.verdict === 'fail' && results.accepted)
    env.warning(
      `tracegate: fail, accepted by the label ${results.accepted.label} (${results.accepted.note ?? ''}) — ${why}`,
    );
  else if (comparison.verdict === 'fail') env.setFailed(`tracegate: fail — ${why}`);
  else if (comparison.verdict === 'baseline-unavailable' && conclusion === 'failure')
    env.setFailed(`tracegate: baseline unavailable, and on-inconclusive is fail — ${why}`);
  else if (comparison.verdict === 'baseline-unavailable')
    env.warning(`tracegate: baseline unavailable (not a pass) — ${why}`);
  else if (conclusion === 'failure')
    env.setFailed(`tracegate: inconclusive, and on-inconclusive is fail — ${why}`);
  else if (comparison.verdict === 'inconclusive') env.warning(`tracegate: inconclusive — ${why}`);
}

type GateOutcomeResults = Parameters<typeof checkOf>[0];
type GateOutcomeComparison = Parameters<typeof checkOf>[1];

/** The data branch the baseline comes from and push runs go to, written through the GitHub API. */
function branchHistory(
  env: ActionEnv,
  octokit: Octokit | undefined,
  spec: string,
  branch: string,
): BranchHistory {
  if (!octokit)
    throw new UsageError(
      `input history: ${spec} is written through the GitHub API: give github-token.`,
    );
  return new BranchHistory(octokit, { ...env.context.repo, branch, warn: env.warning });
}

function realWorkspace(env: ActionEnv): string {
  const workspace = env.env.GITHUB_WORKSPACE ?? process.cwd();
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
  env: ActionEnv,
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
    env.notice(`${why}. The report is in the job summary.`);
    return;
  }
  try {
    const files = ['results.json', 'report.md', PULL_REQUEST_FILE].map((f) => join(out, f));
    const id = await artifacts.upload(artifact, out, files, 14);
    env.notice(
      `${why}. The report is in the job summary and the results in artifact ${artifact} (id ${id}); ` +
        'a workflow_run workflow running tracegate with mode: report posts them (README: fork pull requests).',
    );
  } catch (error) {
    env.notice(`${why}. The report is in the job summary.`);
    env.warning(`tracegate could not upload artifact ${artifact}: ${messageOf(error)}`);
  }
}

/**
 * A shard's part goes up as artifact `tracegate-NAME-shard-I-of-N` for the merge job; without
 * the artifact service (no token) the workflow uploads `out` itself (output shard-artifact).
 */
async function uploadShard(
  env: ActionEnv,
  artifacts: RunArtifacts | undefined,
  name: string,
  out: string,
  shard: { index: number; count: number },
): Promise<void> {
  const artifact = shardArtifactName(name, shard.index, shard.count);
  env.setOutput('shard-artifact', artifact);
  if (!artifacts) {
    env.notice(
      `tracegate: shard ${shard.index} of ${shard.count} is in ${out}; without github-token it is not ` +
        `uploaded: upload ${out} as artifact ${artifact} for the merge job (README: sharded runs).`,
    );
    return;
  }
  const files = ['results.json', 'report.md', 'records.jsonl']
    .map((f) => join(out, f))
    .filter((f) => existsSync(f));
  const id = await artifacts.upload(artifact, out, files, 7);
  env.info(`Uploaded shard ${shard.index} of ${shard.count} as artifact ${artifact} (id ${id})`);
}

/**
 * mode: merge — where the shards' results are: the input `shards` (a directory the workflow
 * downloaded them to), else this workflow run's artifacts `tracegate-NAME-shard-*`, downloaded
 * here (one directory each).
 */
async function shardsDir(
  reporting: ReportingInputs,
  name: string,
  deps: Pick<GateDeps, 'artifacts'>,
  env: ActionEnv,
): Promise<string> {
  if (reporting.shards) return reporting.shards;
  if (!deps.artifacts)
    throw new UsageError(
      "mode: merge downloads the shards' artifacts with github-token (actions: read); " +
        'or download them yourself and give their directory as input shards',
    );
  const runId = env.context.runId;
  const names = await deps.artifacts.list(runId, shardArtifactPrefix(name));
  if (!names.length)
    throw new UsageError(
      `mode: merge found no artifact ${shardArtifactPrefix(name)}* in workflow run ${runId}: ` +
        'did the matrix jobs run with shard: i/n and the same name (and needs: them)?',
    );
  const into = mkdtempSync(join(tmpdir(), 'tracegate-shards-'));
  for (const artifact of names)
    await deps.artifacts.download(artifact, runId, join(into, artifact));
  env.info(`Downloaded ${names.length} shard artifact(s): ${names.join(', ')}`);
  return into;
}

/**
 * The environment-image registry from the Action: `auto` pushes on push runs only (a pull
 * request's code, a fork's above all, never writes the images other runs pull), and ghcr.io is
 * reached with github-token (`packages: write` to push) unless Docker's config or the workflow's
 * TRACEGATE_REGISTRY_PASSWORD has credentials. The token goes to the backend as a value: nothing
 * is written into the process environment, where the tests' containers' builder could read it.
 */
function registryAccess(
  run: { 'image-registry'?: string; 'image-registry-push': 'auto' | 'true' | 'false' },
  eventName: string,
  token: string,
  env: ActionEnv,
): { username: string; password: string } | undefined {
  if (!run['image-registry']) return undefined;
  if (run['image-registry-push'] === 'auto')
    run['image-registry-push'] = eventName === 'push' ? 'true' : 'false';
  if (eventName.startsWith('pull_request')) run['image-registry-push'] = 'false';
  if (run['image-registry'].startsWith('ghcr.io/') && token && !env.env.TRACEGATE_REGISTRY_PASSWORD)
    return { username: env.env.GITHUB_ACTOR ?? 'x-access-token', password: token };
  return undefined;
}
