import type { ConversationMessage, ToolCall } from '../../src/contracts/messages.js';
import type { CompleteOptions, Completion, ModelClient } from '../../src/contracts/model.js';
import type { ToolBudget } from '../../src/contracts/results.js';
import { BUDGET_SPENT, converse } from '../../src/stages/query/agent.js';
import { SourceTree } from '../../src/stages/tools/tree.js';

const tree = new SourceTree({
  version: 1,
  origin: '/testbed',
  files: { 'pkg/mod.py': 'def f(x):\n    return x + 1\n' },
  links: {},
  omitted: {},
});
const prompt: ConversationMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'question' },
];
const BUDGET: ToolBudget = { turns: 6, calls: 4, resultBytes: 2000, tokens: 10_000 };

/** A scripted model: each request gets the next reply; it sees what was sent. */
function scripted(replies: (Partial<Completion> & { calls?: Omit<ToolCall, 'id'>[] })[]) {
  const sent: ConversationMessage[][] = [];
  const client: ModelClient = {
    endpoint: 'fake',
    identity: {
      endpoint: 'fake',
      api: 'openai-chat',
      model: 'm',
      settings: { temperature: 0, maxTokens: 9 },
    },
    complete: (messages: ConversationMessage[], options?: CompleteOptions) => {
      expect(options?.tools?.map((t) => t.name)).toEqual([
        'repo_map',
        'list_dir',
        'read_file',
        'search',
      ]);
      sent.push([...messages]);
      const r = replies[Math.min(sent.length - 1, replies.length - 1)]!;
      return Promise.resolve({
        text: r.text ?? '',
        tokensIn: r.tokensIn ?? 100,
        tokensOut: r.tokensOut ?? 10,
        latencyMs: 5,
        retries: 0,
        ...(r.calls
          ? { toolCalls: r.calls.map((c, i) => ({ id: `c${sent.length}_${i}`, ...c })) }
          : {}),
      });
    },
  };
  return { client, sent };
}

const read = { name: 'read_file', arguments: '{"path": "pkg/mod.py"}' };
const results = (m: ConversationMessage | undefined) => (m?.role === 'tool' ? m.results : []);

describe('converse: a question asked with the repository tools', () => {
  it('runs each call on the tree, sends the results back, and ends on a reply without calls', async () => {
    const { client, sent } = scripted([
      { calls: [read], text: 'let me look' },
      { text: '{"n": 2}' },
    ]);
    const done = await converse(client, prompt, 0, tree, BUDGET);
    expect(done.answered).toBe(true);
    expect(done.completion.text).toBe('{"n": 2}');
    expect(done.completion.tokensIn).toBe(200);
    expect(done.completion.latencyMs).toBe(10);
    expect(done.completion.toolCalls).toBeUndefined();
    // Prose beside calls is kept in the transcript; the calls still run.
    expect(done.transcript.turns[0]!.text).toBe('let me look');
    const second = sent[1]!;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: 'let me look' });
    expect(results(second.at(-1))[0]!.content).toMatch(/^\s+2 {2}\s+return x \+ 1$/m);
    expect(done.transcript).toMatchObject({ toolCalls: 1, refused: 0, errors: 0 });
    expect(done.transcript.turns[0]!.calls[0]).toMatchObject({ name: 'read_file', status: 'ok' });
  });

  it('answers a malformed or unknown call with an error the model reads, and counts it', async () => {
    const { client, sent } = scripted([
      {
        calls: [
          { name: 'read_file', arguments: '{"path": ' },
          { name: 'rm_rf', arguments: '{}' },
        ],
      },
      { text: '{}' },
    ]);
    const done = await converse(client, prompt, 0, tree, BUDGET);
    expect(done.answered).toBe(true);
    expect(done.transcript.errors).toBe(2);
    const [bad, unknown] = results(sent[1]!.at(-1));
    expect(bad!.content).toMatch(/JSON/);
    expect(unknown!.content).toMatch(/read_file/); // it names the tools there are
  });

  it('a model that loops on the same call is told to answer, then has none: no endless loop', async () => {
    const { client, sent } = scripted([{ calls: [read] }]);
    const done = await converse(client, prompt, 0, tree, BUDGET);
    expect(done.answered).toBe(false);
    if (done.answered) return;
    expect(done.reason).toMatch(/kept calling tools after the budget was spent \(4 tool calls\)/);
    expect(sent).toHaveLength(5); // 4 calls run, then the request that was told to answer
    expect(sent[4]!.at(-1)).toEqual({ role: 'user', content: BUDGET_SPENT });
    expect(done.transcript.toolCalls).toBe(4);
    expect(done.completion.tokensIn).toBe(500);
  });

  it('stops at the turn limit and at the token limit, and a model told to answer may still answer', async () => {
    const turns = scripted([{ calls: [read] }]);
    const byTurns = await converse(turns.client, prompt, 0, tree, {
      ...BUDGET,
      turns: 3,
      calls: 99,
    });
    expect(byTurns.answered).toBe(false);
    expect(turns.sent).toHaveLength(3);
    expect(byTurns.transcript.ended).toBe('3 turns');

    const tokens = scripted([
      { calls: [read], tokensIn: 6000 },
      { calls: [read], tokensIn: 6000 },
      { text: '{"n": 1}' },
    ]);
    const byTokens = await converse(tokens.client, prompt, 0, tree, BUDGET);
    expect(byTokens.answered).toBe(true);
    expect(byTokens.transcript.ended).toBe('10000 tokens');
    expect(tokens.sent).toHaveLength(3);
  });

  it('runs no call past the call limit within one turn: the rest are answered "not run"', async () => {
    const { client, sent } = scripted([
      { calls: [read, read, read, read, read, read] },
      { text: '{}' },
    ]);
    const done = await converse(client, prompt, 0, tree, BUDGET);
    expect(done.transcript.turns[0]!.calls.map((c) => c.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'budget',
      'budget',
    ]);
    expect(done.transcript.toolCalls).toBe(4);
    expect(results(sent[1]!.at(-2))[5]!.content).toMatch(/Not run/);
  });

  it('a refused path is counted apart from errors', async () => {
    const { client } = scripted([
      { calls: [{ name: 'read_file', arguments: '{"path": "../../../../etc/passwd"}' }] },
      { text: '{}' },
    ]);
    const done = await converse(client, prompt, 0, tree, BUDGET);
    expect(done.transcript).toMatchObject({ refused: 1, errors: 0 });
  });
});
