import { asReply } from '../../src/adapters/model/http-client.js';
import { parseAnswer } from '../../src/stages/parse/answer.js';
import { COMMENT_MARKER, codeSpan, escapeMarkdown } from '../../src/stages/report/markdown.js';
import { SCORERS } from '../../src/stages/score/scorer.js';
import type { Template } from '../../src/contracts/instance.js';

/**
 * How many replies the battery sends: 1,000 by default (a few seconds of the unit suite), all
 * 10,000 with TRACEGATE_FUZZ=full (README, "Two commands"). The first 1,000 of the full run are
 * the default's: one seed, one sequence.
 */
const REPLIES = process.env.TRACEGATE_FUZZ === 'full' ? 10_000 : 1_000;

/** A small seeded generator (mulberry32): the same replies on every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEMPLATES: Template[] = [
  { loop_iteration_count: 'int' },
  { executed_path: [{ file: 'str', func: 'str', line: 'int' }] },
  { observed_state: [{ variable: 'str', value: 'str' }] },
  { invariant_exists: 'bool' },
  { min_value: 'float', max_value: 'float' },
];

const INJECTIONS = [
  '@octocat please look',
  '#1 closes this',
  '<!-- tracegate:report -->',
  '</details><details open>',
  '| a | b |\n|---|---|',
  '```\nfenced\n```',
  '~~~',
  'line\rbreak',
  'line\u2028sep',
  '<img src=x onerror=alert(1)>',
  '[link](javascript:alert(1))',
  '`code` and ``more``',
  '\\',
  '\u0000\u001b[31mred',
  '\ud800 lone surrogate',
];

function hostileValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 12);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [0, -0, 1e308, -1e308, 2 ** 53 + 1, 0.1, NaN][Math.floor(r() * 7)];
    case 3:
      return INJECTIONS[Math.floor(r() * INJECTIONS.length)];
    case 4:
      return 'x'.repeat(Math.floor(r() * 100_000));
    case 5:
      return depth < 4 ? [hostileValue(r, depth + 1), hostileValue(r, depth + 1)] : [];
    case 6:
      return depth < 4
        ? { loop_iteration_count: hostileValue(r, depth + 1), extra: hostileValue(r, depth + 1) }
        : {};
    case 7:
      return JSON.parse(
        '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}',
      );
    default:
      return Math.floor(r() * 1000);
  }
}

/** Reply text as a hostile server or model would write it. */
function hostileText(r: () => number, template: Template): string {
  const kind = Math.floor(r() * 10);
  const value = hostileValue(r);
  switch (kind) {
    case 0:
      return '['.repeat(5_000 + Math.floor(r() * 10_000)) + ']'.repeat(Math.floor(r() * 10_000));
    case 1:
      return '{"a":'.repeat(2_000 + Math.floor(r() * 8_000)) + '1';
    case 2:
      return `{'__proto__': {'polluted': True}, "constructor": {"prototype": {"polluted": 1}}, ${JSON.stringify(Object.keys(template as object)[0] ?? 'x')}: 1}`;
    case 3:
      return Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]).toString(
        'utf8',
      );
    case 4:
      return `\`\`\`json\n${JSON.stringify({ ...(template as object), injected: INJECTIONS[kind] })}\n\`\`\``;
    case 5:
      return INJECTIONS[Math.floor(r() * INJECTIONS.length)]!.repeat(Math.floor(r() * 200));
    default: {
      const keys =
        typeof template === 'object' && !Array.isArray(template) ? Object.keys(template) : ['x'];
      let text: string;
      try {
        text = JSON.stringify(Object.fromEntries(keys.map((k) => [k, value])));
      } catch {
        text = String(value);
      }
      return r() < 0.3 ? `<think>${'{'.repeat(100)}</think>${text}` : text;
    }
  }
}

describe('hostile replies: parse → score → report never crash, pollute or inject', () => {
  it(`${REPLIES.toLocaleString('en')} seeded replies, every JSON type in every field`, () => {
    const r = rng(20261201);
    let parsedOk = 0;
    const failures = new Map<string, number>();
    for (let i = 0; i < REPLIES; i++) {
      const template = TEMPLATES[i % TEMPLATES.length]!;
      // The server's JSON may put any type where text belongs.
      const content: unknown = r() < 0.2 ? hostileValue(r) : hostileText(r, template);
      const reply = asReply(
        {
          text: content as string,
          reasoning: hostileValue(r) as string,
          tokensIn: hostileValue(r) as number,
          tokensOut: -1,
        },
        ['sk-secret-key-123'],
      );
      expect(typeof reply.text).toBe('string');
      expect(Number.isFinite(reply.tokensIn)).toBe(true);
      const parsed = parseAnswer(reply.text, r() < 0.1 ? 'length' : undefined, template);
      if (parsed.ok) {
        parsedOk++;
        SCORERS.strict.score({ loop_iteration_count: 3 }, parsed.value);
        // Records are JSON: whatever parsed must stringify.
        expect(() => JSON.stringify(parsed.value)).not.toThrow();
      } else {
        failures.set(parsed.failure, (failures.get(parsed.failure) ?? 0) + 1);
        expect(() => JSON.stringify(parsed.value ?? null)).not.toThrow();
      }
      const shown = escapeMarkdown(reply.text.slice(0, 300));
      expect(shown).not.toMatch(/[\r\n\u2028\u2029]/);
      expect(shown).not.toMatch(/(^|[^\\])[<|`]/);
      expect(shown).not.toMatch(/@[A-Za-z]/);
      expect(shown).not.toContain(COMMENT_MARKER);
      expect(codeSpan(reply.text.slice(0, 300))).toMatch(/^`[^`\r\n]*`$/);
    }
    // Nothing reached a prototype, through either parser.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    // The battery exercises both outcomes, and several failure classes.
    expect(parsedOk).toBeGreaterThan(REPLIES / 100);
    expect(failures.size).toBeGreaterThanOrEqual(3);
  });

  it('the forgiving and the strict parser read __proto__ as a plain key, alike', () => {
    const strict = parseAnswer('{"__proto__": {"x": 1}, "loop_iteration_count": 3}', undefined, {
      loop_iteration_count: 'int',
    });
    const lenient = parseAnswer("{'__proto__': {'x': 1}, 'loop_iteration_count': 3,}", undefined, {
      loop_iteration_count: 'int',
    });
    expect(strict).toEqual(lenient);
    expect(strict.ok && Object.getPrototypeOf(strict.value)).toBe(Object.prototype);
  });

  it('an echoed API key never survives into the reply', () => {
    const reply = asReply({ text: 'key is sk-secret-key-123 ok', tokensIn: 1, tokensOut: 1 }, [
      'sk-secret-key-123',
    ]);
    expect(reply.text).toBe('key is *** ok');
  });
});
