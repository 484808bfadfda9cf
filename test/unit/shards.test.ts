import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../src/doors/cli/commands.js';
import type { Engines } from '../../src/app/config/assemble.js';
import type { Results } from '../../src/contracts/results.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';
import { planShards, partIds, shardCluster } from '../../src/stages/select/shard.js';
import { tempDir } from '../helpers/cli.js';
import { bigSuite } from '../helpers/big-suite.js';
import {
  engines,
  fakeBackend,
  flags,
  HEAD,
  PREVIOUS,
  type FakeAnswer,
} from '../helpers/fake-engines.js';

/**
 * A sharded run merged is the run it is parts of: on a suite of 96 instances in 16 test files
 * (clusters), the merge of n shards writes the verdict, per-kind table, flipped items, results
 * and history entry of one unsharded run, for n = 1, 3 and 7, with and without variants.
 */

/** The fake tracer: n = the id's length; a search finds two candidates, candidate k answering n + 1 + k. */
const answer: FakeAnswer = (spec) => {
  if (!('kind' in spec)) return { n: 0 };
  if (spec.variant_search)
    return {
      candidates: [0, 1].map((index) => ({
        index,
        file: 'test_x.py',
        edits: [[1, 0, 1, 1, String(index)]],
        what: `edit ${index}`,
        answer: { n: spec.id.replace(/@v\d+~search$/, '').length + 1 + index },
      })),
      pool: 2,
      targeted: 2,
      same: 0,
      failed: 0,
      unreached: 0,
      unanswered: 0,
      unparsed: 0,
    };
  const original = spec.id.replace(/@v\d+(#\d+)?$/, '');
  const k = spec.variant_candidate;
  return { n: k === undefined ? original.length : original.length + 1 + k };
};

/** Right on every original; wrong on those `wrong` names; a variant right when its original is. */
const model = (wrong: (id: string) => boolean): Engines => {
  const base = engines(() => true);
  return {
    ...base,
    backend: () => fakeBackend(answer),
    client: {
      ...base.client!,
      complete: async (messages) => {
        const text = messages.map((m) => ('content' in m ? m.content : '')).join('\n');
        const id = /What is n for ([\w.@#-]+)\?/.exec(text)![1]!;
        const original = id.replace(/@v\d+(#\d+)?$/, '');
        const right = /#(\d+)$/.exec(id)
          ? original.length + 1 + Number(/#(\d+)$/.exec(id)![1])
          : original.length;
        return {
          text: `{"n": ${wrong(original) ? right + 7 : right}}`,
          finishReason: 'stop',
          tokensIn: 10,
          tokensOut: 3,
          latencyMs: 0,
          retries: 0,
        };
      },
    },
  };
};

const quiet = { stdout: () => {}, stderr: () => {}, env: {} };

async function tracegate(args: string[], with_: Engines = model(() => false)): Promise<number> {
  const said: string[] = [];
  const code = await cli(
    args,
    { ...quiet, stderr: (t) => said.push(t), stdout: (t) => said.push(t) },
    {},
    with_,
  );
  if (code === 2) throw new Error(`tracegate ${args.join(' ')} exited 2:\n${said.join('\n')}`);
  return code;
}

const read = (dir: string): Results =>
  JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

/** What must be equal between a merged run and the unsharded one (timestamps apart). */
function comparable(r: Results): unknown {
  const rest: Partial<Results> = { ...r };
  delete rest.startedAt;
  delete rest.finishedAt;
  delete rest.merged;
  if (rest.comparison) {
    rest.comparison = { ...rest.comparison };
    delete rest.comparison.shards;
  }
  return rest;
}

function historyEntry(history: string): unknown {
  const files = readdirSync(history, { recursive: true })
    .map(String)
    .filter((f) => f.includes(HEAD) && f.endsWith('.json'));
  expect(files).toHaveLength(1);
  const entry = JSON.parse(readFileSync(join(history, files[0]!), 'utf8')) as {
    recordedAt?: string;
    results: Results;
  };
  return { ...entry, recordedAt: undefined, results: comparable(entry.results) };
}

describe('sharded runs merged', () => {
  const suite = bigSuite();
  /** Each run starts from a copy of the baseline's cache: its oracles, none of the candidate's replies. */
  const common = (dir: string, cache = 'cache') => {
    if (cache !== 'cache') cpSync(join(dir, 'cache'), join(dir, cache), { recursive: true });
    return {
      instances: suite,
      endpoint: 'http://fake/v1',
      model: 'm',
      cache: join(dir, cache),
      backend: 'local',
    };
  };
  // The candidate is wrong on every item of 6 of the 16 clusters: a real regression for the gate.
  const regressed = model((id) => Number(id.slice(-2)) % 16 < 6);

  async function baseline(dir: string, variants?: string) {
    const history = join(dir, 'history');
    const v: Record<string, string> = variants ? { variants, 'variant-epoch': '4' } : {};
    await tracegate([
      'run',
      ...flags({ ...common(dir), ...v, out: join(dir, 'base'), history, commit: PREVIOUS }),
    ]);
    return history;
  }

  for (const variants of [undefined, 'add 10']) {
    it(`gives the unsharded run's results, verdict and history entry for n = 1, 3, 7 (variants ${variants ?? 'off'})`, async () => {
      const dir = tempDir('tg-shards-');
      const history = await baseline(dir, variants);
      const v: Record<string, string> = variants ? { variants, 'variant-epoch': '4' } : {};
      const at = { commit: HEAD, parent: PREVIOUS };
      const whole = join(dir, 'whole');
      cpSync(history, join(dir, 'h-whole'), { recursive: true });
      const wholeCode = await tracegate(
        [
          'run',
          ...flags({
            ...common(dir, 'cache-whole'),
            ...v,
            out: whole,
            history: join(dir, 'h-whole'),
            baseline: join(dir, 'base', 'results.json'),
            ...at,
          }),
        ],
        regressed,
      );
      const expected = read(whole);
      expect(expected.comparison!.summary).toMatch(/./);
      expect(expected.comparison!.verdict).toBe('fail');
      expect(wholeCode).toBe(1);
      expect(expected.comparison!.flipped!.lost.length).toBeGreaterThan(0);
      if (variants) expect(expected.variants!.valid).toBeGreaterThan(0);

      for (const n of [1, 3, 7]) {
        const h = join(dir, `h-${n}`);
        cpSync(history, h, { recursive: true });
        const outs: string[] = [];
        const shardCache = common(dir, `cache-${n}`);
        for (let i = 1; i <= n; i++) {
          const out = join(dir, `n${n}`, `tracegate-tracegate-shard-${i}-of-${n}`);
          outs.push(out);
          const code = await tracegate(
            [
              'run',
              ...flags({
                ...shardCache,
                ...v,
                out,
                shard: `${i}/${n}`,
                history: h,
                baseline: join(dir, 'base', 'results.json'),
                ...at,
              }),
            ],
            regressed,
          );
          expect(code).toBe(0); // a shard never gates
          expect(read(out).comparison).toBeUndefined();
        }
        // Shards record nothing: the history still holds the baseline only.
        expect(
          readdirSync(h, { recursive: true })
            .map(String)
            .some((f) => f.includes(HEAD)),
        ).toBe(false);
        const merged = join(dir, `merged-${n}`);
        // The directory the matrix's artifacts were downloaded to, as the merge job gets it.
        const code = await tracegate([
          'merge',
          join(dir, `n${n}`),
          ...flags({
            out: merged,
            instances: suite,
            history: h,
            baseline: join(dir, 'base', 'results.json'),
            ...at,
          }),
        ]);
        expect(code).toBe(wholeCode);
        const got = read(merged);
        expect(got.merged).toEqual({ count: n, missing: [] });
        expect(comparable(got)).toEqual(comparable(expected));
        expect(got.comparison!.flipped).toEqual(expected.comparison!.flipped);
        expect(historyEntry(h)).toEqual(historyEntry(join(dir, 'h-whole')));
        expect(readFileSync(join(merged, 'report.md'), 'utf8')).toBe(
          readFileSync(join(whole, 'report.md'), 'utf8'),
        );
      }
    });
  }

  it('is at best inconclusive without a shard, and names it', async () => {
    const dir = tempDir('tg-shards-missing-');
    await baseline(dir);
    const outs = [1, 2, 3].map((i) => join(dir, `s${i}`));
    for (const [i, out] of outs.entries())
      await tracegate([
        'run',
        ...flags({
          ...common(dir),
          out,
          shard: `${i + 1}/3`,
          baseline: join(dir, 'base', 'results.json'),
        }),
      ]);
    // All three: the same answers as the baseline, a pass.
    const all = await tracegate([
      'merge',
      ...outs,
      ...flags({ out: join(dir, 'm3'), baseline: join(dir, 'base', 'results.json') }),
    ]);
    expect(read(join(dir, 'm3')).comparison!.verdict).toBe('pass');
    expect(all).toBe(0);
    // Shard 2 lost: never a pass, and the verdict says which shard.
    const code = await tracegate([
      'merge',
      outs[0]!,
      outs[2]!,
      ...flags({ out: join(dir, 'm2'), baseline: join(dir, 'base', 'results.json') }),
    ]);
    const got = read(join(dir, 'm2'));
    expect(got.comparison!.verdict).toBe('inconclusive');
    expect(got.comparison!.causes).toContain('shard missing');
    expect(got.comparison!.summary).toMatch(/shard 2 of 3 gave no results/);
    expect(got.merged).toEqual({ count: 3, missing: [2] });
    expect(got.incomplete!.missing.length).toBeGreaterThan(0);
    expect(code).toBe(4);
  });

  it('refuses shards that are not parts of one run, a shard given twice, and results of no shard', async () => {
    const dir = tempDir('tg-shards-bad-');
    const run = async (out: string, extra: Record<string, string>) =>
      tracegate(['run', ...flags({ ...common(dir), out, ...extra })]);
    await run(join(dir, 'a1'), { shard: '1/2' });
    await run(join(dir, 'a2'), { shard: '2/2' });
    await run(join(dir, 'other'), { shard: '2/2', sample: '20' });
    await run(join(dir, 'plain'), {});
    const merge = async (...dirs: string[]) => {
      const said: string[] = [];
      const code = await cli(
        ['merge', ...dirs, '--out', join(dir, 'm')],
        { ...quiet, stderr: (t) => said.push(t) },
        {},
      );
      return { code, said: said.join('\n') };
    };
    const other = await merge(join(dir, 'a1'), join(dir, 'other'));
    expect(other.code).toBe(2);
    expect(other.said).toMatch(/differ in the plan .*not parts of one run/);
    const twice = await merge(join(dir, 'a1'), join(dir, 'a1'));
    expect(twice.said).toMatch(/shard 1 of 2 is given twice/);
    const plain = await merge(join(dir, 'plain'));
    expect(plain.said).toMatch(/not a shard's results/);
    const none = await merge(join(dir, 'nowhere'));
    expect(none.said).toMatch(/not a directory/);
    // A truncated or hostile part is read like any results file, and refused by name.
    const cut = join(dir, 'cut');
    cpSync(join(dir, 'a2'), cut, { recursive: true });
    const text = readFileSync(join(cut, 'results.json'), 'utf8');
    writeFileSync(join(cut, 'results.json'), text.slice(0, text.length / 2));
    const truncated = await merge(join(dir, 'a1'), cut);
    expect(truncated.code).toBe(2);
    expect(truncated.said).toContain(`${join(cut, 'results.json')}: not valid JSON`);
    writeFileSync(
      join(cut, 'results.json'),
      JSON.stringify({ ...JSON.parse(text), instances: [{ id: 1 }] }),
    );
    const hostile = await merge(join(dir, 'a1'), cut);
    expect(hostile.code).toBe(2);
    expect(hostile.said).toContain(`${join(cut, 'results.json')}: not a tracegate results file`);
    // A part whose results.json links out of it is refused, never read through.
    const linked = join(dir, 'linked');
    mkdirSync(linked, { recursive: true });
    symlinkSync('/etc/passwd', join(linked, 'results.json'));
    const escape = await merge(join(dir, 'a1'), linked);
    expect(escape.code).toBe(2);
    expect(escape.said).not.toContain('root:');
    const ok = await merge(join(dir, 'a1'), join(dir, 'a2'));
    expect(ok.code).toBe(0);

    // A part is checked against the plan, and its verdicts against its oracles (issue 45: a part
    // could carry another part's item, a record twice, a flipped verdict, an index past the count,
    // negative or enormous counts; a part missing a record of its own merged as complete).
    const whole = JSON.parse(readFileSync(join(dir, 'a2', 'results.json'), 'utf8')) as Results;
    const first = JSON.parse(readFileSync(join(dir, 'a1', 'results.json'), 'utf8')) as Results;
    const tampered = async (name: string, change: (r: Results) => void) => {
      const at = join(dir, `t-${name}`);
      mkdirSync(at, { recursive: true });
      const copy = structuredClone(whole);
      change(copy);
      writeFileSync(join(at, 'results.json'), JSON.stringify(copy));
      return merge(join(dir, 'a1'), at);
    };
    const foreign = await tampered('foreign', (r) => r.instances.push(first.instances[0]!));
    expect(foreign.said).toMatch(/holds \S+, which is not an item of its part/);
    const doubled = await tampered('doubled', (r) => r.instances.push(r.instances[0]!));
    expect(doubled.said).toMatch(/holds \S+ twice/);
    const flipped = await tampered('flipped', (r) => {
      const record = r.instances.find((i) => i.parsed !== undefined)!;
      record.correct = !record.correct;
    });
    expect(flipped.said).toMatch(/says \S+ is (correct|wrong), but its parsed answer/);
    const past = await tampered('past', (r) => (r.shard!.index = 3));
    expect(past.code).toBe(2);
    const negative = await tampered('negative', (r) => (r.harvest.cached = -5));
    expect(negative.said).toMatch(/count that is not a whole number/);
    const huge = await tampered('huge', (r) => (r.harvest.failed = 1e308));
    expect(huge.said).toMatch(/count that is not a whole number/);
    for (const refused of [foreign, doubled, flipped, negative, huge]) expect(refused.code).toBe(2);
    // A part short of one of its records: merged, as incomplete, that item named missing.
    let dropped = '';
    await tampered('short', (r) => (dropped = r.instances.pop()!.id));
    expect(read(join(dir, 'm')).incomplete?.missing).toEqual([dropped]);
  });

  it('refuses a shard that is not i/n with 1 ≤ i ≤ n ≤ 256, naming the flag', async () => {
    const dir = tempDir('tg-shards-flag-');
    for (const bad of ['0/4', '5/4', 'a/b', '1/257', '2']) {
      const said: string[] = [];
      const code = await cli(
        ['run', ...flags({ ...common(dir), out: join(dir, 'o'), shard: bad })],
        { ...quiet, stderr: (t) => said.push(t) },
        {},
        model(() => false),
      );
      expect(code).toBe(2);
      expect(said.join('\n')).toContain(`--shard must be i/n with 1 ≤ i ≤ n ≤ 256`);
      expect(said.join('\n')).toContain(`got "${bad}"`);
    }
  });
});

describe('the shard plan', () => {
  const item = (id: string, test: string, kind = 'S2_Loops'): LoadedInstance =>
    ({
      instance: { id, kind, environment: 'env', tests: [`${test}::t`] },
      contentHash: `h-${id}`,
    }) as unknown as LoadedInstance;
  const selection = Array.from({ length: 60 }, (_, k) =>
    item(
      `i${String(k).padStart(2, '0')}`,
      `test_${k % 13}.py`,
      k % 7 ? 'S2_Loops' : 'W1_TestOutcome',
    ),
  );

  it('keeps every cluster in one part, every item exactly once, and balances the parts', () => {
    for (const n of [1, 2, 4, 7, 13, 20]) {
      const plan = planShards(selection, n, 'test', () => 1);
      const parts = Array.from({ length: n }, (_, i) => partIds(plan, i + 1));
      expect(parts.flat().sort()).toEqual(selection.map((l) => l.instance.id));
      const partOf = new Map<string, number>();
      for (const l of selection) {
        const part = plan.part[plan.ids.indexOf(l.instance.id)]!;
        const cluster = shardCluster(l, 'test');
        expect(partOf.get(cluster) ?? part).toBe(part);
        partOf.set(cluster, part);
      }
      // Largest cluster first to the lightest part: no part above the mean by more than a cluster.
      const sizes = parts.map((p) => p.length);
      const mean = selection.length / n;
      expect(Math.max(...sizes)).toBeLessThanOrEqual(Math.ceil(mean) + 5);
    }
  });

  it('is the same plan for the same selection, and splits by package when the gate clusters by package', () => {
    const a = planShards(selection, 4, 'test', () => 1);
    expect(planShards([...selection], 4, 'test', () => 1)).toEqual(a);
    const byPackage = planShards(selection, 4, 'package', () => 1);
    expect(new Set(byPackage.part).size).toBe(1); // one environment: one cluster, one part
  });

  it('weighs the expected cost, not the count', () => {
    // One heavy cluster (cost 10 per item) goes alone; the light ones fill the other part.
    const heavy = planShards(selection, 2, 'test', (l) =>
      l.instance.tests[0]!.startsWith('test_0.') ? 100 : 1,
    );
    const heavyPart = heavy.part[heavy.ids.indexOf('i00')]!;
    const others = heavy.ids.filter((_, i) => heavy.part[i] === heavyPart);
    expect(
      others.every((id) =>
        selection.find((l) => l.instance.id === id)!.instance.tests[0]!.startsWith('test_0.'),
      ),
    ).toBe(true);
  });
});

// The output directories are created by the runs; make sure tempDir's parent exists for `nowhere`.
mkdirSync(tempDir('tg-shards-root-'), { recursive: true });
