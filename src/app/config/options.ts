import { DEFAULT_SCORING, SCORING_MODES } from '../../stages/score/scorer.js';
import { DEFAULT_WORLD_FACTOR } from '../../families/world/score.js';
import { z } from 'zod';
import { CLUSTER_BY, GATE_SCOPES, ON_INCONCLUSIVE } from '../../contracts/comparison.js';
import { optionName, UsageError, type Door } from '../../errors.js';
import { endpointSchema } from '../../adapters/model/endpoint.js';
import { DEFAULT_TOOL_BUDGET } from '../../stages/query/agent.js';
import { CONTEXT_MODES } from '../../stages/prompt/build.js';
import { API_NAMES, PROTOCOLS } from '../../adapters/model/protocols.js';
import { MAX_SHARDS } from '../../stages/select/shard.js';
import { list, int, num, positive, jsonObject, stopList, budget } from './option-values.js';

export const harvestOptionsSchema = z.object({
  /** Directory of instances (a suite or the instances root). Default: the bundled suite. */
  instances: z.string().optional(),
  /** Comma-separated kinds, prefixes (S1) or names (Loops). */
  categories: list,
  ids: list,
  sample: int('sample', 1, 1_000_000).optional(),
  /** Unset: the baseline's recorded seed when there is one, else 0 (app/config/selection.ts). */
  seed: int('seed', 0, 2 ** 31).optional(),
  cache: z.string().default('.tracegate/cache'),
  backend: z
    .enum(['docker', 'local', 'auto'], { message: '--backend must be docker, local or auto' })
    .default('docker'),
  /** Base image of every environment; default: python:<python>-slim (pulled, or a local stand-in). */
  'base-image': z.string().optional(),
  /** A SWE-Flux run's image names mapped to local images: `NAME=IMAGE,…` (docs/swe-flux.md). */
  'swe-flux-images': z.string().optional(),
  /**
   * Harvest again the instances that failed for this tracer and environment in an earlier run
   * (else remembered for RETRY_FAILED_AFTER runs: a warm run starts no container for them).
   */
  'retry-failed': z
    .enum(['true', 'false'], { message: '--retry-failed must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * A registry repository for environment images (`ghcr.io/OWNER/tracegate-env`): pulled under
   * their content tag before a build, pushed after one (see image-registry-push).
   */
  'image-registry': z
    .string()
    .regex(
      /^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)+$/,
      '--image-registry must be a repository without a tag, e.g. ghcr.io/owner/tracegate-env',
    )
    .optional(),
  /**
   * The Docker engine to harvest on (`tcp://host:2376`, `ssh://user@host`, `unix:///path`); unset:
   * DOCKER_HOST, else the local socket. TLS material from DOCKER_TLS_VERIFY / DOCKER_CERT_PATH.
   */
  'docker-host': z
    .string()
    .regex(
      /^(tcp|ssh|unix):\/\/\S+$/,
      '--docker-host must be tcp://HOST:PORT, ssh://USER@HOST or unix:///PATH',
    )
    .optional(),
  /** Push built images to image-registry: auto (the CLI: yes; the Action: on push runs only), true, false. */
  'image-registry-push': z
    .enum(['auto', 'true', 'false'], {
      message: '--image-registry-push must be auto, true or false',
    })
    .default('auto'),
});

/**
 * The gate's settings (docs/gate.md): `run`, the Action and `compare` share them.
 * Defaults are the ones a team gating on a few hundred items would pick.
 */
export const gateOptionsSchema = z.object({
  /** Smallest drop (0..1) that can fail the gate; a pass must rule out a drop this large. */
  'min-drop': positive('min-drop', 1).default(0.05),
  /** Smallest significant gain a kind reports as `improved`. */
  'min-gain': positive('min-gain', 1).default(0.05),
  /** Family-wise one-sided error rate over overall + kinds (and across the two looks of a top-up). */
  alpha: positive('alpha', 0.5).default(0.05),
  /** Clusters of items that are not independent: test (default), package or none. */
  'cluster-by': z
    .enum(CLUSTER_BY, { message: `--cluster-by must be one of ${CLUSTER_BY.join(', ')}` })
    .default('test'),
  /** Whose interval decides a pass: overall (default), or per-kind (every kind's too). */
  gate: z
    .enum(GATE_SCOPES, { message: `--gate must be one of ${GATE_SCOPES.join(', ')}` })
    .default('overall'),
  /** Above this share of excluded items (of those both runs hold), at best inconclusive. */
  'max-excluded': num('max-excluded', 0, 1).default(0.05),
  /** What an inconclusive verdict does: neutral (check neutral, exit 4), pass or fail. */
  'on-inconclusive': z
    .enum(ON_INCONCLUSIVE, {
      message: `--on-inconclusive must be one of ${ON_INCONCLUSIVE.join(', ')}`,
    })
    .default('neutral'),
});
export type GateOptions = z.infer<typeof gateOptionsSchema>;

/**
 * Every option of a run, by the name it has both as a CLI flag (`--name`)
 * and as an Action input (`name`). Values arrive as strings from either door
 * and are parsed here once.
 */
export const runOptionsSchema = harvestOptionsSchema.extend({
  /** API base URL of the candidate, e.g. http://127.0.0.1:8000/v1; parsed without trailing slashes. */
  endpoint: endpointSchema,
  /** Model name as the server knows it. */
  model: z
    .string({ error: '--model is required (the model name the server serves)' })
    .min(1, '--model is required (the model name the server serves)'),
  /** Checkpoint digest or commit; recorded in results and keys answers. */
  'model-revision': z.string().optional(),
  'api-key': z.string().optional(),
  /**
   * What to compare with: `auto` (default with a history: the merge base's entry for a
   * pull request, the first parent's for a push), a commit sha in the history, or a
   * results.json file.
   */
  baseline: z.string().optional(),
  /** The run's name: one history series and one sticky comment per name. */
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, '--name: letters, digits, . _ - (at most 64)')
    .default('tracegate'),
  /** Where scores are tracked per commit: a directory, or `branch:NAME` (a data branch). */
  history: z.string().optional(),
  /** Entries kept per name in the history (older ones are dropped on write). */
  retention: int('retention', 1, 1_000_000).default(500),
  out: z.string().default('tracegate-out'),
  /** Protocol of the endpoint: OpenAI chat, OpenAI (legacy) completions for base checkpoints, Anthropic. */
  api: z
    .enum(API_NAMES, { message: `--api must be one of ${API_NAMES.join(', ')}` })
    .default('openai-chat'),
  /** Requests in flight. */
  concurrency: int('concurrency', 1, 256).default(4),
  /** Per-request timeout in seconds (the whole body included). */
  timeout: num('timeout', 1, 3600).default(120),
  /** Retries of transient failures (connection, timeout, 408/429/5xx, garbled body). */
  retries: int('retries', 0, 20).default(3),
  /** Total seconds all requests of the run may take; unset means no limit. */
  'time-budget': num('time-budget', 1, 7 * 24 * 3600).optional(),
  /**
   * Seconds to wait for a model server that is still starting (its health route, its model list,
   * one tiny request, polled) before the check fails; 0: one attempt. The Action's default is 600.
   */
  'endpoint-wait': num('endpoint-wait', 0, 7 * 24 * 3600).default(0),
  /** Check the endpoint before the harvest (model list, one tiny request): a dead one fails in seconds. */
  preflight: z
    .enum(['true', 'false'], { message: '--preflight must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  /** USD per million input / output tokens, e.g. `3/15`: the report shows the run's cost. */
  price: z
    .string()
    .regex(
      /^\d+(\.\d+)?\/\d+(\.\d+)?$/,
      '--price must be USD per million input and output tokens, e.g. 3/15',
    )
    .transform((v) => {
      const [input, output] = v.split('/').map(Number) as [number, number];
      return { input, output };
    })
    .optional(),
  temperature: num('temperature', 0, 2).default(0),
  'max-tokens': int('max-tokens', 1, 1_000_000).default(2048),
  'top-p': num('top-p', 0, 1).optional(),
  /** Sampling seed sent to the server (sample i gets seed + i); not the selection `seed`. */
  'generation-seed': int('generation-seed', 0, 2 ** 31).optional(),
  stop: stopList.optional(),
  /** JSON object merged into every request body (server-specific knobs). */
  'extra-body': jsonObject.optional(),
  /** Answers per instance: the majority is scored, pass@k reported beside it. */
  samples: int('samples', 1, 100).default(1),
  /** strict (sound; the default for gating) or swe-flux (SWE-Flux's score_answer, for comparable numbers). */
  scoring: z
    .enum(SCORING_MODES, { message: `--scoring must be one of ${SCORING_MODES.join(', ')}` })
    .default(DEFAULT_SCORING),
  /** World-model kinds: a predicted peak or wall time passes within this factor of the truth. */
  'world-factor': num('world-factor', 1, 1000).default(DEFAULT_WORLD_FACTOR),
  /** How much code the prompt shows: slice, files or none; repo: none, and read-only tools to read it. */
  context: z
    .enum(CONTEXT_MODES, { message: `--context must be one of ${CONTEXT_MODES.join(', ')}` })
    .default('slice'),
  /** Prompt size limit: characters (48000) or tokens (12000t, estimated at 4 chars each). */
  'context-budget': budget.default({ amount: 16000, unit: 'tokens' }),
  /** `context: repo`: requests per question at most, the answer's included. */
  'tool-turns': int('tool-turns', 2, 1000).default(DEFAULT_TOOL_BUDGET.turns),
  /** `context: repo`: tool calls run per question at most. */
  'tool-calls': int('tool-calls', 1, 10_000).default(DEFAULT_TOOL_BUDGET.calls),
  /** `context: repo`: bytes of one tool result at most (a longer one is cut, with a marker). */
  'tool-result-bytes': int('tool-result-bytes', 256, 10_000_000).default(
    DEFAULT_TOOL_BUDGET.resultBytes,
  ),
  /** `context: repo`: tokens in and out per question; past them the model is told to answer. */
  'tool-tokens': int('tool-tokens', 1, 1e9).default(DEFAULT_TOOL_BUDGET.tokens),
  ...gateOptionsSchema.shape,
  /** When inconclusive, add up to this many paired items and decide again (0: off). */
  'top-up': int('top-up', 0, 100_000).default(0),
  /**
   * Fresh variants (perturbed test inputs, re-harvested): off, `add N` (N variants beside the
   * selection) or only (a variant of each selected instance, instead of it).
   */
  variants: z
    .string()
    .regex(
      /^(off|only|add [1-9]\d{0,5})$/,
      '--variants must be off, only, or add N (e.g. "add 50")',
    )
    .transform((v) =>
      v === 'off'
        ? undefined
        : v === 'only'
          ? { mode: 'only' as const }
          : { mode: 'add' as const, count: Number(v.slice(4)) },
    )
    .optional(),
  /**
   * The variants' seed: the same epoch gives the same variants; pairs stay within one epoch.
   * `auto`: the baseline's epoch when it has one (a pull request), else the ISO week (e.g.
   * 202649); unset: the baseline's, else 1.
   */
  'variant-epoch': z
    .string()
    .regex(/^(auto|\d{1,10})$/, '--variant-epoch must be auto or a whole number, e.g. 3')
    .transform((v) => (v === 'auto' ? ('auto' as const) : Number(v)))
    .refine((v) => v === 'auto' || v <= 2 ** 31, '--variant-epoch must be at most 2147483648')
    .optional(),
  /**
   * `i/n`: this run answers part i of the selection split into n (a matrix job); the parts are
   * combined by `merge`, which gives the verdict. Unset: the whole selection, one verdict.
   */
  shard: z
    .string()
    .transform((s, ctx) => {
      const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(s);
      const [index, count] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
      if (m && index >= 1 && index <= count && count <= MAX_SHARDS) return { index, count };
      ctx.addIssue({
        code: 'custom',
        message:
          `--shard must be i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (e.g. 2/4: the second of four ` +
          `matrix jobs), got "${s}"`,
      });
      return z.NEVER;
    })
    .optional(),
});

export type RunOptions = z.infer<typeof runOptionsSchema>;

/** `tracegate compare`: the gate on two results files. */
export const compareOptionsSchema = gateOptionsSchema.extend({
  baseline: z
    .string({ error: '--baseline is required (the baseline results.json)' })
    .min(1, '--baseline is required (the baseline results.json)'),
  candidate: z
    .string({ error: '--candidate is required (the candidate results.json)' })
    .min(1, '--candidate is required (the candidate results.json)'),
  /** Where comparison.json is written. */
  out: z.string().default('tracegate-out'),
});
export type CompareOptions = z.infer<typeof compareOptionsSchema>;
export type CompareOptionName = keyof z.input<typeof compareOptionsSchema>;
export type RunOptionName = keyof z.input<typeof runOptionsSchema>;
export type HarvestOptions = z.infer<typeof harvestOptionsSchema>;
export type HarvestOptionName = keyof z.input<typeof harvestOptionsSchema>;

/**
 * Parses raw string options; unset ('' or undefined) means "use the default".
 * Errors name each option as `door` spells it: `--samples` or `input samples`.
 */
export function parseRunOptions(
  raw: Partial<Record<RunOptionName, string | undefined>>,
  door: Door = 'cli',
): RunOptions {
  const options = parseWith(runOptionsSchema, raw, door);
  if (options.context === 'repo' && !PROTOCOLS[options.api].tools) {
    const name = (n: string) => optionName(n, door);
    throw new UsageError(
      `${name('context')} repo offers the model tools, which ${name('api')} ${options.api} ` +
        `cannot carry: use ${name('api')} openai-chat or anthropic, or ${name('context')} slice.`,
    );
  }
  return options;
}

export function parseCompareOptions(
  raw: Partial<Record<CompareOptionName, string | undefined>>,
): CompareOptions {
  return parseWith(compareOptionsSchema, raw);
}

export function parseHarvestOptions(
  raw: Partial<Record<HarvestOptionName, string | undefined>>,
): HarvestOptions {
  return parseWith(harvestOptionsSchema, raw);
}

/**
 * An issue's message with its option named as `door` spells it. The schemas
 * word their messages the CLI's way (`--name must be …`); one without a name
 * gets its option's in front.
 */
function issueMessage(issue: { path: PropertyKey[]; message: string }, door: Door): string {
  const name = issue.path.map(String).join('.');
  const flag = `--${name}`;
  const rest = issue.message.slice(flag.length);
  if (issue.message.startsWith(flag) && !/^[\w-]/.test(rest)) return optionName(name, door) + rest;
  return issue.message.startsWith('--')
    ? issue.message
    : `${optionName(name, door)}: ${issue.message}`;
}

export function parseWith<S extends z.ZodType>(
  schema: S,
  raw: Record<string, string | undefined>,
  door: Door = 'cli',
): z.infer<S> {
  const present = Object.fromEntries(
    Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => issueMessage(i, door)).join('; '));
  }
  return parsed.data;
}

/** Names of all run options, for the CLI parser and the Action's input reader. */
export const RUN_OPTION_NAMES = Object.keys(runOptionsSchema.shape) as RunOptionName[];
export const HARVEST_OPTION_NAMES = Object.keys(harvestOptionsSchema.shape) as HarvestOptionName[];
export const COMPARE_OPTION_NAMES = Object.keys(compareOptionsSchema.shape) as CompareOptionName[];
export const GATE_OPTION_NAMES = Object.keys(gateOptionsSchema.shape) as (keyof z.input<
  typeof gateOptionsSchema
>)[];
