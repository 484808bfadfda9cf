// Scouted candidates → instance files, pure: which targets of a test file are asked about, the
// instances' ids and bytes (what the loader will hash), deterministic given the seed.
import { createHash } from 'node:crypto';
import type { Candidate, ScoutedFunction } from '../../contracts/scout.js';
import { instanceSchema, type Instance } from '../../contracts/instance.js';
import { canonicalJson } from '../../util/hash.js';

/** The instance a candidate becomes, and the file it is written to. */
export interface Drafted {
  instance: Instance;
  /** `<id>.instance.json`, beside the test file. */
  fileName: string;
  /** Exactly the bytes written (stable key order, 2-space JSON, final newline). */
  bytes: Buffer;
  /** The target, `file::qualname` (for caps and reports). */
  target: string;
}

const hash = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\0')).digest('hex');

/**
 * How much there is to ask about a function: distinct kinds its candidates
 * span, lines it ran, invocations. Targets are chosen by this score; ties
 * are broken by a hash of the seed and the target (stable, not alphabetical).
 */
export function targetScore(fn: ScoutedFunction, candidates: readonly Candidate[]): number {
  const kinds = new Set(candidates.map((c) => c.kind)).size;
  const lines = Object.keys(fn.lines).length;
  return kinds * 10 + Math.min(lines, 40) + Math.min(fn.invocations, 10);
}

/** The `count` best targets of one test file's scout (by score, then seeded), as `file::qualname`. */
export function chooseTargets(
  functions: readonly ScoutedFunction[],
  candidates: readonly Candidate[],
  count: number,
  seed: number,
): string[] {
  const byTarget = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = `${c.target.file}::${c.target.function}`;
    byTarget.set(key, [...(byTarget.get(key) ?? []), c]);
  }
  return functions
    .map((fn) => ({ key: `${fn.file}::${fn.qualname}`, fn }))
    .filter(({ key }) => byTarget.has(key))
    .map(({ key, fn }) => ({
      key,
      score: targetScore(fn, byTarget.get(key)!),
      tie: hash(String(seed), key),
    }))
    .sort((a, b) => b.score - a.score || (a.tie < b.tie ? -1 : a.tie > b.tie ? 1 : 0))
    .slice(0, count)
    .map((t) => t.key);
}

const SHORT_KIND = (kind: string): string => kind.split('_')[0]!.toLowerCase();

/** `click.core.Command.main` → `command-main`: the last two name parts, as an id segment. */
function slug(qualname: string): string {
  return qualname
    .split('.')
    .filter((p) => p !== '<locals>')
    .slice(-2)
    .join('-')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 40);
}

/** Key order of a written instance file. */
function ordered(instance: Instance): Record<string, unknown> {
  const query = Object.fromEntries(
    Object.entries(instance.query).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    id: instance.id,
    kind: instance.kind,
    environment: instance.environment,
    tests: instance.tests,
    target: { file: instance.target.file, function: instance.target.function },
    query,
    timeout_seconds: instance.timeout_seconds,
  };
}

/**
 * A candidate as an instance of suite `prefix` in environment `environment`:
 * its id names the package, kind, mode and function, plus a hash of
 * everything asked (so two questions never share an id, and the same
 * question always gets the same one).
 */
export function draft(
  candidate: Candidate,
  prefix: string,
  environment: string,
  timeoutSeconds: number,
): Drafted {
  const mode = String(candidate.query.mode ?? 'default');
  const digest = hash(
    canonicalJson([candidate.kind, candidate.query, candidate.target, candidate.tests]),
  );
  const id = [
    prefix,
    SHORT_KIND(candidate.kind),
    mode.replace(/_/g, '-'),
    slug(candidate.target.function),
    digest.slice(0, 8),
  ]
    .filter(Boolean)
    .join('-');
  const written = ordered({
    id,
    kind: candidate.kind,
    environment,
    tests: candidate.tests,
    target: candidate.target,
    query: candidate.query,
    timeout_seconds: timeoutSeconds,
  } as unknown as Instance);
  // What the loader will read back from the file, defaults included.
  const instance = instanceSchema.parse(written);
  const bytes = Buffer.from(`${JSON.stringify(written, null, 2)}\n`);
  return {
    instance,
    fileName: `${id}.instance.json`,
    bytes,
    target: `${candidate.target.file}::${candidate.target.function}`,
  };
}
