import type { CachedOracle } from '../../contracts/oracle.js';
import type { Template } from '../../contracts/instance.js';
import { parseAnswer } from '../parse/answer.js';
import {
  buildPrompt,
  DEFAULT_PROMPT_OPTIONS,
  type ChatMessage,
  type PromptOptions,
} from '../prompt/build.js';
import type { ErrorClass, InstanceRecord } from '../../contracts/results.js';
import type { ScoringMode } from '../score/scorer.js';
import { passes } from '../score/verdict.js';
import type { CometKind, QuestionKind } from '../../contracts/kinds.js';
import { familyOf } from '../../families/registry.js';
import type { CometRecord, Verifier } from '../../contracts/comet.js';
import { cometVerdict, replyToRun } from '../../families/comet/score.js';
import { Limiter } from './pool.js';
import { finishRecord } from './record.js';
import { majorityVote, type SampleOutcome } from './vote.js';
import type { LoadedInstance } from '../../contracts/suite.js';
import type { Completion, ModelClient } from '../../contracts/model.js';
import { oracleDigest } from '../kinds/digest.js';
import { ModelRequestError, ModelResponseError } from '../../contracts/model.js';
import type { ToolBudget, Transcript } from '../../contracts/results.js';
import type { SourceTree } from '../tools/tree.js';
import { converse } from './agent.js';

const MAX_PREDICTION_CHARS = 4096;
const MAX_QUESTION_CHARS = 1000;

/** 4xx statuses that concern this request alone (too long, invalid for this prompt). */
const PER_REQUEST_REJECTIONS = new Set([400, 413, 422]);

export interface AnswerOptions {
  /** Answers asked per instance; the majority is scored, pass@k reported beside it. */
  samples: number;
  prompt: PromptOptions;
  /** Bounds requests in flight across instances (samples of one instance share it). */
  limiter?: Limiter;
  /** Which scorer decides (default strict). */
  scoring?: ScoringMode;
  /** World-model kinds: how far a predicted number may be from the truth and pass (default 2×). */
  worldFactor?: number;
  /** B1/B2: runs each reply against both versions (none: their replies are `verification_error`). */
  verifier?: Verifier;
  /** `context: repo`: the tree the model's tools read, and their limits. */
  repo?: RepoTools;
}

/** The repository tools of one question: the tree they read and the limits of the conversation. */
export interface RepoTools {
  tree: SourceTree;
  budget: ToolBudget;
}

interface Sample {
  outcome: SampleOutcome;
  completion?: Completion;
  detail?: string;
  parsed?: unknown;
  comet?: CometRecord;
  transcript?: Transcript;
}

/** A B1/B2 sample's verdict: its reply run in the sandbox, then scored on what it did. */
async function verifySample(
  kind: CometKind,
  loaded: LoadedInstance,
  oracle: CachedOracle,
  parsed: unknown,
  verifier: Verifier | undefined,
): Promise<Pick<Sample, 'outcome' | 'detail' | 'comet'>> {
  const toRun = replyToRun(kind, parsed);
  if ('refused' in toRun) {
    const comet: CometRecord = { reason: `refused: ${toRun.refused}` };
    return { outcome: { ok: true, value: parsed, correct: false }, comet };
  }
  if (!verifier)
    return {
      outcome: { ok: false, failure: 'verification_error' },
      detail: 'no sandbox to verify B1/B2 replies in',
    };
  const verified = await verifier.verify(loaded, oracle, toRun.reply);
  if (verified.status !== 'ok')
    return { outcome: { ok: false, failure: 'verification_error' }, detail: verified.reason };
  const { correct, record } = cometVerdict(kind, parsed, verified.verification);
  return {
    outcome: { ok: true, value: parsed, correct },
    comet: { ...record, ...(verified.cached ? { cached: true } : {}) },
  };
}

async function askOnce(
  client: ModelClient,
  messages: ChatMessage[],
  sample: number,
  oracle: CachedOracle,
  template: Template,
  verdict: (prediction: unknown) => boolean,
  repo?: RepoTools,
): Promise<Sample> {
  let completion: Completion;
  let transcript: Transcript | undefined;
  try {
    if (repo) {
      const conversation = await converse(client, messages, sample, repo.tree, repo.budget);
      ({ completion, transcript } = conversation);
      if (!conversation.answered)
        return {
          outcome: { ok: false, failure: 'no_answer' },
          completion,
          transcript,
          detail: `no answer within the tool budget: ${conversation.reason}`,
        };
    } else completion = await client.complete(messages, { sample });
  } catch (error) {
    if (error instanceof ModelRequestError && PER_REQUEST_REJECTIONS.has(error.status))
      return { outcome: { ok: false, failure: 'request_rejected' }, detail: error.message };
    if (error instanceof ModelResponseError)
      return { outcome: { ok: false, failure: error.errorClass }, detail: error.message };
    throw error;
  }
  const parsed = parseAnswer(completion.text, completion.finishReason, template);
  const read = transcript ? { transcript } : {};
  if (!parsed.ok)
    return {
      outcome: { ok: false, failure: parsed.failure },
      completion,
      detail: parsed.detail,
      parsed: parsed.value,
      ...read,
    };
  const correct = verdict(parsed.value);
  return {
    outcome: { ok: true, value: parsed.value, correct },
    completion,
    parsed: parsed.value,
    ...read,
  };
}

/**
 * The messages an instance's model is asked with: built from the instance
 * and its harvested entry's question, template and context (the code and the
 * test files as the tracer read them inside the sandbox: the host reads none
 * itself). The oracle's answer is never read.
 */
export function promptFor(
  instance: Pick<LoadedInstance['instance'], 'kind' | 'tests'>,
  // Only the question, the template and the context: nothing the run measured or traced.
  entry: {
    oracle: Pick<CachedOracle['oracle'], 'question' | 'template_answer'>;
    context: CachedOracle['context'];
  },
  options: PromptOptions = DEFAULT_PROMPT_OPTIONS,
): ChatMessage[] {
  const { question, template_answer } = entry.oracle;
  return buildPrompt(
    { kind: instance.kind, tests: instance.tests, question, template_answer },
    entry.context,
    entry.context.tests ?? [],
    options,
  );
}

/**
 * prompt → query (k samples) → parse → vote → score for one instance with an
 * oracle. Transport failures that survive retries propagate (they end the
 * run); a request the server rejects for this instance alone is recorded as
 * `request_rejected`, an oversized reply as `response_too_large`.
 */
export async function answerInstance(
  loaded: LoadedInstance,
  oracle: CachedOracle,
  client: ModelClient,
  options: AnswerOptions = { samples: 1, prompt: DEFAULT_PROMPT_OPTIONS },
): Promise<InstanceRecord> {
  const { instance } = loaded;
  const { template_answer } = oracle.oracle;
  const messages = promptFor(instance, oracle, options.prompt);
  const limiter = options.limiter ?? new Limiter(options.samples);
  const kind = oracle.oracle.question_kind;
  const truth = oracle.oracle.oracle_answer;
  const verdict = (p: unknown) => passes(kind, truth, p, options);
  const family = familyOf(kind);
  const verify = family.runsReplies
    ? (p: unknown) => verifySample(kind as CometKind, loaded, oracle, p, options.verifier)
    : undefined;
  // A B1/B2 reply runs in the sandbox after its request, outside the request limiter.
  const samples = await Promise.all(
    Array.from({ length: options.samples }, (_, i) =>
      limiter
        .run(() => askOnce(client, messages, i, oracle, template_answer, verdict, options.repo))
        .then(async (s) => (verify && s.outcome.ok ? { ...s, ...(await verify(s.parsed)) } : s)),
    ),
  );
  const vote = majorityVote(samples.map((s) => s.outcome));
  const winner = samples[vote.winner]!;
  const completions = samples.flatMap((s) => (s.completion ? [s.completion] : []));
  const total = (f: (c: Completion) => number) => completions.reduce((n, c) => n + f(c), 0);
  const k = options.samples;
  return finishRecord(loaded, {
    id: instance.id,
    kind: instance.kind,
    scored: true,
    question: oracle.oracle.question.slice(0, MAX_QUESTION_CHARS),
    oracle: oracle.oracle.oracle_answer,
    oracleDigest: oracleDigest(oracle.oracle),
    ...(oracle.oracle.meta.complexity ? { complexity: oracle.oracle.meta.complexity.score } : {}),
    correct: winner.outcome.ok && winner.outcome.correct,
    error: winner.outcome.ok ? null : (winner.outcome.failure as ErrorClass),
    ...(winner.detail !== undefined ? { detail: winner.detail } : {}),
    ...(winner.completion
      ? { prediction: winner.completion.text.slice(0, MAX_PREDICTION_CHARS) }
      : {}),
    ...(winner.parsed !== undefined ? { parsed: winner.parsed } : {}),
    ...(winner.comet ? { comet: winner.comet } : {}),
    ...(winner.transcript ? { transcript: winner.transcript } : {}),
    ...(family.recordExtras && winner.outcome.ok
      ? family.recordExtras(
          kind as QuestionKind,
          truth,
          winner.outcome.value,
          oracle.oracle.meta.measurement,
        )
      : {}),
    tokensIn: total((c) => c.tokensIn),
    tokensOut: total((c) => c.tokensOut),
    latencyMs: total((c) => c.latencyMs),
    retries: total((c) => c.retries),
    ...(completions.length && completions.every((c) => c.cached) ? { cached: true } : {}),
    ...(k > 1
      ? { samples: k, samplesCorrect: vote.correctSamples, passAtK: vote.correctSamples > 0 }
      : {}),
  });
}
