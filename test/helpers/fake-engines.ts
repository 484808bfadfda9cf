// Fake engines for driving the doors without Docker or a model: a harvest backend that answers
// every plan as the tracer would (n = the length of the id), a model that answers from a rule.
import { join } from 'node:path';
import type { Engines } from '../../src/app/config/assemble.js';
import type { ResolvedSource, Runtime } from '../../src/contracts/environment.js';
import type { ModelClient } from '../../src/contracts/model.js';
import type {
  HarvestBackend,
  HarvestJob,
  PlanSpec,
  ScoutSpec,
  VerifySpec,
} from '../../src/contracts/harvest-backend.js';
import { FIXTURE_SUITE } from './cli.js';

export const SOURCE: ResolvedSource = { kind: 'packages', wheels: [] };
export const RUNTIME: Runtime = {
  backend: 'local',
  python: '/usr/bin/python3',
  version: '3.11.9',
  note: 'fake',
};
export const HEAD = 'b'.repeat(40);
export const PREVIOUS = 'a'.repeat(40);

/** A spec's answer as the fake tracer gives it (default: n = the length of its id). */
export type FakeAnswer = (spec: PlanSpec | ScoutSpec | VerifySpec) => unknown;

/** Every spec of a job answered ok (by `answer`), as result lines (with `fields`' too, if given). */
export function fakeBackend(
  answer: FakeAnswer = (spec) => ({ n: spec.id.length }),
  fields?: (spec: PlanSpec | ScoutSpec | VerifySpec) => Record<string, unknown>,
): HarvestBackend {
  return {
    name: 'fake',
    ensureAvailable: async () => {},
    runtime: async () => ({ runtime: RUNTIME, source: SOURCE }),
    run: async (job: HarvestJob) => {
      const plan = job.plan({ instanceDir: (i) => `/i/${i}`, workDir: '/w', isolation: null });
      return plan.instances
        .map((spec) =>
          JSON.stringify({
            tracegate_result: 1,
            id: spec.id,
            instance_hash: 'instance_hash' in spec ? spec.instance_hash : '',
            env_digest: 'env_digest' in spec ? spec.env_digest : '',
            status: 'ok',
            answer: answer(spec),
            question: `What is n for ${spec.id}?`,
            template_answer: { n: 'int' },
            context: { file: 'f.py', func: 'f', first_line: 1, source: 'def f():\n    pass\n' },
            python: '3.11.9',
            tracer_version: 'fake',
            stats: { events: 1, invocations: 1, pytest_exit_code: 0, seconds: 0.1 },
            ...fields?.(spec),
          }),
        )
        .join('\n');
    },
  };
}

/** A model that replies `{"n": N}` with N read off the prompt's text by `n`. */
export function replyingClient(n: (prompt: string) => number): ModelClient {
  const identity = {
    endpoint: 'http://fake/v1',
    api: 'openai-chat',
    model: 'm',
    settings: { temperature: 0, maxTokens: 64 },
  };
  return {
    endpoint: identity.endpoint,
    identity,
    complete: async (messages) => ({
      text: `{"n": ${n(messages.map((m) => ('content' in m ? m.content : '')).join('\n'))}}`,
      finishReason: 'stop',
      tokensIn: 10,
      tokensOut: 3,
      latencyMs: 0,
      retries: 0,
    }),
  };
}

/** Right on the ids `rightOn` says (n = the id's length), wrong on the others. */
export function fakeClient(rightOn: (id: string) => boolean): ModelClient {
  return replyingClient((text) => {
    const id = /What is n for ([\w.@#-]+)\?/.exec(text)![1]!;
    return rightOn(id) ? id.length : id.length + 1;
  });
}

export const engines = (rightOn: (id: string) => boolean): Engines => ({
  backend: fakeBackend,
  sources: { resolve: async () => SOURCE },
  client: fakeClient(rightOn),
});

export const options = (dir: string) => ({
  instances: FIXTURE_SUITE,
  endpoint: 'http://fake/v1',
  model: 'm',
  cache: join(dir, 'cache'),
  out: join(dir, 'out'),
  backend: 'local',
});

export function flags(record: Record<string, string>): string[] {
  return Object.entries(record).flatMap(([k, v]) => [`--${k}`, v]);
}
