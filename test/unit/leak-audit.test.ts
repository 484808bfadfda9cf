import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { cachedOracleSchema, type CachedOracle } from '../../src/contracts/oracle.js';
import type { QuestionKind } from '../../src/contracts/kinds.js';
import { heuristicAnswer } from '../../src/adapters/heuristic-model/heuristic.js';
import { runAudit } from '../../src/app/audit.js';
import { auditTable, type AuditItem } from '../../src/stages/audit/audit.js';
import { copyAnswer, namedInPrompt } from '../../src/stages/audit/adversaries.js';
import { promptFor } from '../../src/stages/query/answer.js';
import { withoutTrace } from '../helpers/without-trace.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { DirOracleCache } from '../../src/adapters/stores/oracle-cache.js';
import { cacheLayout } from '../../src/adapters/stores/layout.js';
import { loadSuite } from '../../src/adapters/suite/load.js';
import { sha256 } from '../../src/util/hash.js';

/**
 * The leak audit (issue 43): prompt-only adversaries answer a stratified
 * sample of the bundle's items, recorded from a real harvest
 * (scripts/record-audit-fixture.mjs: the instances and their cached entries,
 * nothing written by hand), from the prompts today's builder makes of them.
 * None may beat a kind's floor (its best constant answer) by more than 5
 * points. docs/benchmark-validity.md holds the table and the same audit
 * before the prompts were built from source only.
 */
interface Recorded {
  per_kind: number;
  sources: Record<string, string>;
  items: {
    instance: { id: string; kind: QuestionKind; tests: string[] };
    entry: CachedOracle & { context: { tests?: { name: string; source: string }[] } };
  }[];
}

const BUNDLE = join(import.meta.dirname, '..', '..', 'instances');
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'audit', 'harvested.json.gz');
const recorded = JSON.parse(gunzipSync(readFileSync(FIXTURE)).toString('utf8')) as Recorded;

const userText = (messages: { role: string; content: string }[]) =>
  messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');

/** The recorded entries as the cache reads them back (shared test files put back in place). */
function storedEntries(): {
  instance: Recorded['items'][number]['instance'];
  stored: CachedOracle;
}[] {
  return recorded.items.map(({ instance, entry }) => {
    const tests = entry.context.tests?.map((t) => ({
      name: t.name,
      source: recorded.sources[t.source]!,
    }));
    const stored = cachedOracleSchema.parse({
      oracle: entry.oracle,
      context: { ...entry.context, ...(tests ? { tests } : {}) },
    });
    return { instance, stored };
  });
}

function auditItems(): AuditItem[] {
  return storedEntries().map(({ instance, stored }) => {
    const prompt = userText(promptFor(instance, stored));
    return {
      id: instance.id,
      kind: stored.oracle.question_kind,
      prompt,
      template: stored.oracle.template_answer,
      oracle: stored.oracle.oracle_answer,
    };
  });
}

describe('the leak audit over recorded prompts of the bundle', () => {
  const items = auditItems();

  it('covers every audited kind with a stratified sample of a real harvest', () => {
    const kinds = new Set(items.map((i) => i.kind));
    // S*, M*, W*: every kind but B1/B2 (scored by running replies).
    expect(kinds.size).toBe(18);
    for (const kind of kinds)
      expect(items.filter((i) => i.kind === kind).length).toBeGreaterThanOrEqual(
        Math.min(recorded.per_kind, 15),
      );
  });

  it('builds every recorded prompt byte for byte the same with the harvest trace removed', () => {
    const entries = storedEntries();
    expect(entries.length).toBe(recorded.items.length);
    for (const { instance, stored } of entries) {
      const full = JSON.stringify(promptFor(instance, stored));
      expect(JSON.stringify(promptFor(instance, withoutTrace(stored)))).toBe(full);
      // Nothing of the answer is printed in the prompt either (a list or a structure: its JSON).
      const answer = JSON.stringify(stored.oracle.oracle_answer);
      if (answer.length > 40) expect(full).not.toContain(answer);
    }
  });

  it('no prompt-only adversary beats a kind floor by more than 5 points', () => {
    const rows = runAudit(items, {
      'demo heuristic': (item) => JSON.parse(heuristicAnswer(item.prompt)) as unknown,
    });
    const leaks = rows.filter((r) => r.leaks.length);
    if (leaks.length) throw new Error(`leaks:\n${auditTable(rows)}`);
    expect(rows.length).toBe(18);
  });

  it('flags an adversary that knows the answers on every kind, and none that answers the floor', () => {
    const truth = new Map(items.map((i) => [i.id, i.oracle]));
    const rows = runAudit(items, {
      'reads the oracle': (item) => truth.get(item.id),
      'the floor itself': (_item, constant) => constant,
    });
    for (const row of rows) {
      expect(row.leaks).toEqual(['reads the oracle']);
      expect(row.scores['the floor itself']).toBe(row.floor);
      expect(row.tokens.p90).toBeGreaterThanOrEqual(row.tokens.median);
    }
    expect(auditTable(rows)).toContain('100.0% **leak**');
  });

  it('the copier reads what a prompt names (so a leak would be caught)', () => {
    // A prompt listing what ran — the p3 layout — is copied into a call order that passes.
    const prompt = [
      'Question kind: S6_InterProceduralCFG',
      '## Code under test: pkg/a.py (run)',
      '```python',
      '   10  def run(x):',
      '```',
      '## Executed: pkg/b.py (first)',
      '```python',
      '    3  def first():',
      '```',
      '## May be called: pkg/b.py (second)',
      '```python',
      '    7  def second():',
      '```',
      '## Test file: test_a.py',
      '```python',
      '    1  def test_run():',
      '```',
    ].join('\n');
    const named = namedInPrompt(prompt);
    expect(named.functions.map((n) => n.func)).toEqual(['run', 'first', 'second']);
    expect(named.functions[0]!.target).toBe(true);
    expect(named.tests).toEqual([{ file: 'test_a.py', func: 'test_run', line: 1 }]);
    expect(
      copyAnswer(prompt, { function_call_order: [{ file: 'str', func: 'str' }] }, {}, 'sorted'),
    ).toEqual({
      function_call_order: [
        { file: 'pkg/b.py', func: 'first' },
        { file: 'pkg/b.py', func: 'second' },
      ],
    });
  });
});

describe('tracegate audit', () => {
  it('audits the cached entries of a suite and passes when nothing leaks; says what to do with none', async () => {
    const cache = tempDir('tg-audit-');
    const store = new DirOracleCache(cacheLayout(cache).oracles);
    for (const { instance, stored } of storedEntries()) store.put(sha256(instance.id), stored);
    const run = await runCli(['audit', '--cache', cache]);
    // The recorded entries answer today's bundle: each counts when its instance is unchanged
    // (otherwise re-record: node scripts/record-audit-fixture.mjs CACHE after a harvest).
    expect(run.stderr).toContain(
      `audit: ${recorded.items.length} of ${loadSuite(BUNDLE).instances.length} instance(s) harvested; no adversary`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter((l) => /^\| [SMW]\d_/.test(l))).toHaveLength(18);

    const empty = await runCli(['audit', '--cache', tempDir('tg-audit-empty-')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(
      /no harvested oracle of the selected instances in .*: run `tracegate harvest --cache/,
    );
  });
});
