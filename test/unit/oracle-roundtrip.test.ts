import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedEnvironment } from '../../src/contracts/environment.js';
import { environmentSchema } from '../../src/contracts/environment.js';
import { instanceSchema } from '../../src/contracts/instance.js';
import type { PlanSpec } from '../../src/contracts/tracer-protocol.js';
import { oracleKey } from '../../src/stages/harvest/key.js';
import { toOutcome } from '../../src/stages/harvest/outcome.js';
import { agreedResult, readResultLines } from '../../src/stages/harvest/results.js';
import { DirOracleCache } from '../../src/adapters/stores/oracle-cache.js';

/**
 * One oracle schema for the cold path and the warm one: whatever a harvest
 * accepts from the tracer's result line (read → agree → outcome, as
 * harvest.ts does) is stored by the real cache and read back by it
 * identical; whatever it refuses, it refuses with a reason that names the
 * field. Lines are generated from a seeded PRNG, written as the tracer
 * writes them (Python's json.dumps: sorted keys, ASCII escapes, and number
 * literals JavaScript reads differently: -0.0, 1e400, 20-digit integers).
 */

/** mulberry32: a small seeded PRNG, so every run sees the same 500 lines. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number literal written as Python writes it, which JSON.parse may read as another value. */
class Literal {
  constructor(readonly text: string) {}
}

/** json.dumps(value, sort_keys=True) with ensure_ascii, as tracer/tracegate_tracer/runner/output.py writes. */
function pyDumps(value: unknown): string {
  if (value instanceof Literal) return value.text;
  if (typeof value === 'string')
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${pyDumps(k)}: ${pyDumps(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/**
 * Deep identity of JSON data: the same own keys, the same values by Object.is
 * (so -0 differs from 0). Not toStrictEqual: a key named `constructor` fools
 * its type check.
 */
function identical(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null)
    return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        identical((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

const ENV: ResolvedEnvironment = {
  recipe: environmentSchema.parse({ name: 'env', python: '3.12', packages: [] }),
  source: { kind: 'packages', wheels: [] },
  runtime: { backend: 'docker', image: 'python:3.12-slim', note: 'present' },
  digest: 'e'.repeat(64),
};
const TRACER_DIGEST = 'f'.repeat(64);

function loadedInstance(kind: 'S2_Loops' | 'W2_PeakMemory'): Parameters<typeof toOutcome>[0] {
  const instance = instanceSchema.parse({
    id: `rt-${kind}`,
    kind,
    environment: 'env',
    tests: ['test_m.py::test_it'],
    target: { file: 'pkg/m.py', function: 'f' },
    query: kind === 'S2_Loops' ? { invocation: 1, loop_line: 3 } : {},
  });
  return {
    instance,
    dir: '/suite/rt',
    file: 'rt/instance.json',
    contentHash: (kind === 'S2_Loops' ? 'a' : 'b').repeat(64),
    environment: ENV.recipe,
    environmentDir: 'environments',
  };
}

const LOADED = [loadedInstance('S2_Loops'), loadedInstance('W2_PeakMemory')];

function specOf(loaded: (typeof LOADED)[number]): PlanSpec {
  const { instance } = loaded;
  return {
    id: instance.id,
    dir: '/tg/i/0',
    tests: instance.tests,
    kind: instance.kind,
    target: instance.target,
    query: instance.query,
    instance_hash: loaded.contentHash,
    env_digest: ENV.digest,
  };
}

/** Generates result lines with valid, edge-case and broken parts, in seeded proportions. */
function generator(seed: number) {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const chance = (p: number) => rand() < p;
  const text = (): string =>
    pick([
      '',
      'x',
      'def f(x):\n    return x\n',
      'naïve “quotes” \\ "\t',
      '😀 ok',
      '\ud800 lone',
      '\u0000nul',
    ]) + Math.floor(rand() * 1000);
  const numbers = [
    0,
    1,
    -2,
    1.5,
    1e308,
    5e-324,
    new Literal('-0.0'),
    new Literal('12345678901234567890'),
    new Literal('1e400'),
  ];
  const json = (depth: number): unknown => {
    const leaf = depth <= 0 || chance(0.4);
    if (leaf) return pick<unknown>([null, true, false, text(), pick(numbers), pick(numbers)]);
    if (chance(0.5)) return Array.from({ length: Math.floor(rand() * 4) }, () => json(depth - 1));
    const keys = ['a', 'value', '__proto__', 'ünï', 'constructor', '0'];
    return Object.fromEntries(
      Array.from({ length: Math.floor(rand() * 4) }, () => [pick(keys), json(depth - 1)]),
    );
  };
  const firstLine = () =>
    chance(0.8)
      ? 1 + Math.floor(rand() * 500)
      : pick<unknown>([0, -3, 2.5, '7', new Literal('1e400')]);
  const block = () => ({ first_line: firstLine(), source: text() });
  const slice = () => ({
    functions: Array.from({ length: Math.floor(rand() * 3) }, () => ({
      ...block(),
      file: 'pkg/m.py',
      func: 'pkg.m.g',
      ...(chance(0.05) ? { extra: 1 } : {}),
    })),
    preamble: { file: 'pkg/m.py', blocks: [block()], ...(chance(0.5) ? { truncated: false } : {}) },
    ...(chance(0.95) ? { truncated: chance(0.5) } : {}),
    ...(chance(0.95) ? { named: chance(0.8) ? [] : ['pkg.m.h'] } : {}),
    ...(chance(0.95) ? { unresolved: chance(0.8) ? [] : ['handler(…)'] } : {}),
  });
  const context = () => ({
    file: 'pkg/m.py',
    func: 'pkg.m.f',
    first_line: firstLine(),
    source: text(),
    ...(chance(0.5) ? { slice: slice() } : {}),
    ...(chance(0.5)
      ? {
          tests: Array.from({ length: Math.floor(rand() * 25) }, (_, i) =>
            chance(0.97) ? { name: `test_${i}.py`, source: text() } : { name: i },
          ),
        }
      : {}),
    ...(chance(0.03) ? { lines: [1, 2] } : {}),
  });
  return (index: number): { loaded: (typeof LOADED)[number]; line: string } => {
    const world = chance(0.2);
    const loaded = LOADED[world ? 1 : 0]!;
    const status = chance(0.85) ? 'ok' : pick(['invalid', 'timeout', 'error']);
    const result: Record<string, unknown> = {
      tracegate_result: 1,
      id: loaded.instance.id,
      instance_hash: chance(0.98) ? loaded.contentHash : '0'.repeat(64),
      env_digest: ENV.digest,
      status,
      python: '3.12.3 (main) [GCC 12.2.0]',
      tracer_version: '0.2.0',
      question: chance(0.95) ? `Question ${index}?` : chance(0.5) ? null : '',
      template_answer: chance(0.95)
        ? world
          ? { peak_bytes: 'int' }
          : { loop_iteration_count: 'int' }
        : pick<unknown>([null, 3, ['str']]),
      stats: {
        events: Math.floor(rand() * 100),
        invocations: 1,
        pytest_exit_code: pick([0, 1, null]),
        seconds: rand() * 10,
        uid: pick([null, 20000]),
        group: 0,
        ...(chance(0.5)
          ? { trace: 'trace-0.json', backend: pick(['settrace', 'monitoring']) }
          : {}),
        ...(chance(0.1) ? { notes: ['killed 1 process(es) the tests left running'] } : {}),
        ...(chance(0.03) ? { cpu: 1 } : {}),
      },
    };
    if (status !== 'ok') result.reason = `why ${index}`;
    if (status === 'ok' || chance(0.5)) result.context = context();
    if (status === 'ok' && chance(0.97))
      result.answer = world
        ? { peak_bytes: pick(numbers) }
        : chance(0.5)
          ? json(3)
          : { loop_iteration_count: pick(numbers) };
    if (world && status === 'ok')
      result.measurement = {
        machine: { arch: 'x86_64', cpus: 2, memory_bytes: pick(numbers) },
        runtime: { python: '3.12.3', implementation: 'CPython', platform: 'Linux' },
        clean_runs: 1,
        peak: { bytes: 65536, traced: 1, rss: 0, rss_method: 'VmHWM' },
        scope: 'pkg',
        band: { ratio: 1.25, floor: 65536 },
        ...(chance(0.03) ? { harvests: [] } : {}),
      };
    if (chance(0.02)) result.runs_agreed = 2;
    if (chance(0.02)) delete result.python;
    return { loaded, line: pyDumps(result) };
  };
}

describe('an oracle reads back from the cache as the harvest accepted it', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracegate-roundtrip-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('for 500 generated tracer result lines: accepted → identical from the cache, refused → a named field', () => {
    const warnings: string[] = [];
    const cache = new DirOracleCache(dir, (m) => warnings.push(m));
    const next = generator(20240611);
    const counts = { stored: 0, refusedLine: 0, refusedOutcome: 0, notOk: 0 };
    for (let i = 0; i < 500; i++) {
      const { loaded, line } = next(i);
      const spec = specOf(loaded);
      const read = readResultLines(line + '\n', [spec]).get(spec.id);
      if (typeof read === 'string') {
        // Refused cold: the reason says which field, or whose result it was not.
        expect(read).toMatch(
          /^unreadable tracer result \([^:]+: .+\)$|^the tracer result does not belong to this instance/,
        );
        counts.refusedLine++;
        continue;
      }
      // Two runs of the same line agree (harvest.ts runs every oracle twice).
      const agreed = agreedResult([read, read], () => {}, loaded.instance.kind);
      const outcome = toOutcome(loaded, agreed, ENV, TRACER_DIGEST);
      if (outcome.status !== 'ok') {
        expect(outcome.reason).toMatch(/\S/);
        if (read?.status === 'ok') counts.refusedOutcome++;
        else counts.notOk++;
        continue;
      }
      const key = oracleKey(loaded.contentHash + String(i), ENV.digest, TRACER_DIGEST);
      cache.put(key, outcome.entry);
      const warm = cache.get(key);
      expect(warm).toEqual(outcome.entry);
      expect(identical(warm, outcome.entry)).toBe(true);
      counts.stored++;
    }
    expect(warnings).toEqual([]);
    // The generator reaches every branch: enough of each that a change in either path shows.
    expect(counts.stored).toBeGreaterThanOrEqual(100);
    expect(counts.refusedLine).toBeGreaterThanOrEqual(50);
    expect(counts.refusedOutcome).toBeGreaterThanOrEqual(5);
    expect(counts.notOk).toBeGreaterThanOrEqual(20);
  });

  const S2 = LOADED[0]!;
  const line = (
    answer: string,
    context = '{"file": "pkg/m.py", "first_line": 3, "func": "pkg.m.f", "source": "x"}',
  ) =>
    `{"tracegate_result": 1, "answer": ${answer}, "context": ${context}, "env_digest": "${ENV.digest}", ` +
    `"id": "${S2.instance.id}", "instance_hash": "${S2.contentHash}", "python": "3.12", "question": "Q?", ` +
    `"stats": {"events": 1, "invocations": 1, "pytest_exit_code": 0, "seconds": 0.1, "uid": null}, ` +
    `"status": "ok", "template_answer": {"loop_iteration_count": "int"}, "tracer_version": "0.2.0"}`;
  const cold = (text: string) => {
    const read = readResultLines(text, [specOf(S2)]).get(S2.instance.id);
    return typeof read === 'string' ? read : toOutcome(S2, read, ENV, TRACER_DIGEST);
  };

  it("a traced item's complexity goes into its oracle's meta and reads back; one out of range is refused", () => {
    const complexity = {
      version: 1,
      score: 4.2,
      semantic: 5.5,
      answer: 3.1,
      navigation: 4,
      features: {
        semantic: { steps: 120, lines: 14, branches: 3, turns: 31, invocations: 1, exceptions: 1 },
        answer: { scalars: 20, elements: 18, depth: 3, chars: 300 },
        navigation: { functions: 4, files: 2, tests: 1, test_lines: 40, indirect: 0 },
      },
    };
    const withComplexity = (c: unknown) =>
      line('{"loop_iteration_count": 3}').replace(/}$/, `, "complexity": ${JSON.stringify(c)}}`);
    const outcome = cold(withComplexity(complexity));
    expect(outcome).toMatchObject({ status: 'ok', entry: { oracle: { meta: { complexity } } } });
    const cache = new DirOracleCache(dir, () => {});
    const entry = (outcome as { entry: Parameters<DirOracleCache['put']>[1] }).entry;
    const key = oracleKey(S2.contentHash + 'complexity', ENV.digest, TRACER_DIGEST);
    cache.put(key, entry);
    expect(identical(cache.get(key), entry)).toBe(true);
    expect(cold(withComplexity({ ...complexity, score: 11 }))).toBe(
      'unreadable tracer result (complexity.score: Too big: expected number to be <=10)',
    );
    const forged = { ...complexity.features.answer, secret: 1 };
    expect(
      cold(withComplexity({ ...complexity, features: { ...complexity.features, answer: forged } })),
    ).toBe('unreadable tracer result (complexity.features.answer: Unrecognized key: "secret")');
  });

  it('a negative zero is the zero the cache reads back, cold and warm alike', () => {
    const outcome = cold(line('{"loop_iteration_count": -0.0}'));
    expect(outcome).toMatchObject({ status: 'ok' });
    const entry = (outcome as { entry: { oracle: { oracle_answer: unknown } } }).entry;
    expect(
      Object.is(
        (entry.oracle.oracle_answer as { loop_iteration_count: number }).loop_iteration_count,
        0,
      ),
    ).toBe(true);
  });

  it('refuses what JSON cannot carry back, and a context the cache would refuse, naming the field', () => {
    expect(cold(line('{"loop_iteration_count": 1e400}'))).toBe(
      'unreadable tracer result (answer: the number at .loop_iteration_count is out of range for JSON (a double))',
    );
    expect(cold(line('3', '{"file": "f.py", "first_line": 0, "func": "m.f", "source": ""}'))).toBe(
      'unreadable tracer result (context.first_line: Too small: expected number to be >0)',
    );
    expect(
      cold(
        line('3', '{"file": "f.py", "first_line": 1, "func": "m.f", "source": "", "lines": []}'),
      ),
    ).toBe('unreadable tracer result (context: Unrecognized key: "lines")');
  });
});
