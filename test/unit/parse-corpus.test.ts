import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Template } from '../../src/contracts/instance.js';
import { asReply } from '../../src/adapters/model/http-client.js';
import { openaiChat } from '../../src/adapters/model/openai-chat.js';
import { parseAnswer } from '../../src/stages/parse/answer.js';
import { FIXTURES } from '../helpers/cli.js';

interface Case {
  file: string;
  template: string;
  expect: string;
  value?: unknown;
  finish?: string;
  reasoning?: string;
  note?: string;
}

const dir = join(FIXTURES, 'responses');
const corpus = JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')) as {
  templates: Record<string, Template>;
  cases: Case[];
};

describe('parsing a corpus of realistic raw model replies', () => {
  it('has at least 40 cases covering every verdict', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.cases.map((c) => c.expect))).toEqual(
      new Set(['ok', 'empty', 'no_json', 'schema_mismatch', 'truncated', 'refused']),
    );
  });

  it.each(corpus.cases.map((c) => [c.file, c] as const))('%s', (_name, c) => {
    const raw = readFileSync(join(dir, c.file), 'utf8');
    // The reply as a server sends it: `reasoning` goes in reasoning_content, and it is
    // kept apart from the answer, never parsed for it.
    const reply = asReply(
      openaiChat.decode({
        choices: [
          {
            message: { content: raw, reasoning_content: c.reasoning ?? null },
            finish_reason: c.finish ?? 'stop',
          },
        ],
      }),
      [],
    );
    if (c.reasoning) expect(reply.reasoning).toBe(c.reasoning);
    const finish = reply.finishReason === 'stop' ? undefined : reply.finishReason;
    const result = parseAnswer(reply.text, finish, corpus.templates[c.template]!);
    if (c.expect === 'ok') {
      expect(result).toEqual({ ok: true, value: c.value });
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.failure).toBe(c.expect);
    }
  });
});
