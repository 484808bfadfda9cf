import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CachedOracle } from '../harvest/oracle.js';
import type { LoadedInstance } from '../instances/load.js';
import { extractJson } from '../parse/extract.js';
import { validateAgainstTemplate } from '../parse/validate.js';
import { buildPrompt } from '../prompt/build.js';
import type { InstanceRecord } from '../results/schema.js';
import { compareValues } from '../score/compare-values.js';
import { ModelRequestError, type ModelClient } from './client.js';

const MAX_PREDICTION_CHARS = 4096;

/**
 * prompt → query → parse → score for one instance with an oracle. Transport
 * failures that survive retries propagate (they end the run); a request the
 * server rejects for this instance alone is recorded as `request_rejected`.
 */
export async function answerInstance(
  loaded: LoadedInstance,
  oracle: CachedOracle,
  client: ModelClient,
): Promise<InstanceRecord> {
  const { instance } = loaded;
  const testFiles = [...new Set(instance.tests.map((t) => t.split('::')[0]!))].map((name) => ({
    name,
    source: readFileSync(join(loaded.dir, name), 'utf8'),
  }));
  const messages = buildPrompt(instance, oracle.context, testFiles);
  const base = {
    id: instance.id,
    kind: instance.kind,
    scored: true,
    oracle: oracle.oracle.oracle_answer,
  };
  let completion;
  try {
    completion = await client.complete(messages);
  } catch (error) {
    if (error instanceof ModelRequestError && error.status === 400) {
      return {
        ...base,
        correct: false,
        error: 'request_rejected',
        detail: error.message,
        tokensIn: 0,
        tokensOut: 0,
        latencyMs: 0,
        retries: 0,
      };
    }
    throw error;
  }
  const accounting = {
    prediction: completion.text.slice(0, MAX_PREDICTION_CHARS),
    tokensIn: completion.tokensIn,
    tokensOut: completion.tokensOut,
    latencyMs: completion.latencyMs,
    retries: completion.retries,
  };
  const extracted = extractJson(completion.text, completion.finishReason);
  if (!extracted.ok)
    return {
      ...base,
      ...accounting,
      correct: false,
      error: extracted.failure,
      detail: extracted.detail,
    };
  const validated = validateAgainstTemplate(extracted.value, instance.template_answer);
  if (!validated.ok) {
    return {
      ...base,
      ...accounting,
      parsed: extracted.value,
      correct: false,
      error: validated.failure,
      detail: validated.detail,
    };
  }
  const correct = compareValues(oracle.oracle.oracle_answer, validated.value);
  return { ...base, ...accounting, parsed: validated.value, correct, error: null };
}
