import type { ConversationMessage } from '../../src/contracts/messages.js';
import { anthropic } from '../../src/adapters/model/anthropic.js';
import { asReply } from '../../src/adapters/model/http-client.js';
import { openaiChat } from '../../src/adapters/model/openai-chat.js';
import { openaiCompletions } from '../../src/adapters/model/openai-completions.js';
import { MAX_CALLS_PER_REPLY } from '../../src/adapters/model/tool-calls.js';
import { responseCacheKey } from '../../src/adapters/model/caching-client.js';
import { REPO_TOOLS } from '../../src/stages/tools/tools.js';

const settings = { temperature: 0, maxTokens: 64 };
const conversation: ConversationMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'question' },
  {
    role: 'assistant',
    content: 'reading',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "a.py"}' }],
  },
  { role: 'tool', results: [{ id: 'c1', name: 'read_file', content: '    1  x = 1' }] },
  { role: 'user', content: 'answer now' },
];

describe('tool calling on the wire', () => {
  it('openai-chat: tools offered as functions, calls on the assistant turn, one tool message per result', () => {
    const body = openaiChat.buildBody('m', conversation, settings, 0, REPO_TOOLS);
    expect(body.tool_choice).toBe('auto');
    expect((body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(
      REPO_TOOLS.map((t) => t.name),
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'question' },
      {
        role: 'assistant',
        content: 'reading',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path": "a.py"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '    1  x = 1' },
      { role: 'user', content: 'answer now' },
    ]);
    // Without tools the body is what one-shot prompts always sent.
    expect(openaiChat.buildBody('m', conversation.slice(0, 2), settings, 0)).not.toHaveProperty(
      'tools',
    );
  });

  it('openai-chat: decodes tool calls, whatever shape the server gives their arguments', () => {
    const decoded = openaiChat.decode({
      choices: [
        {
          message: {
            content: null,
            tool_calls: [
              { id: 'x', function: { name: 'read_file', arguments: '{"path": "a.py"}' } },
              { function: { name: 'list_dir', arguments: { path: '.' } } },
              { id: 'x', function: { name: 'search' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    expect(decoded.text).toBe('');
    expect(decoded.toolCalls).toEqual([
      { id: 'x', name: 'read_file', arguments: '{"path": "a.py"}' },
      { id: 'call_1', name: 'list_dir', arguments: '{"path":"."}' },
      { id: 'x_2', name: 'search', arguments: '' },
    ]);
  });

  it('anthropic: tool_use and tool_result blocks, consecutive user turns merged, system apart', () => {
    const body = anthropic.buildBody('m', conversation, settings, 0, REPO_TOOLS);
    expect(body.system).toBe('sys');
    expect((body.tools as { name: string; input_schema: unknown }[])[0]).toMatchObject({
      name: 'repo_map',
      input_schema: REPO_TOOLS[0]!.parameters,
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'question' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'reading' },
          { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a.py' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '    1  x = 1' },
          { type: 'text', text: 'answer now' },
        ],
      },
    ]);
    const decoded = anthropic.decode({
      content: [
        { type: 'text', text: 'let me read' },
        { type: 'tool_use', id: 'tu1', name: 'read_file', input: { path: 'b.py' } },
      ],
      stop_reason: 'tool_use',
    });
    expect(decoded.text).toBe('let me read');
    expect(decoded.toolCalls).toEqual([
      { id: 'tu1', name: 'read_file', arguments: '{"path":"b.py"}' },
    ]);
  });

  it('openai-completions has no tools: a conversation with tool turns is never sent', () => {
    expect(openaiCompletions.tools).toBe(false);
    expect(() => openaiCompletions.buildBody('m', conversation, settings, 0)).toThrow(/no tools/);
  });

  it('a reply keeps at most MAX_CALLS_PER_REPLY calls, with the key redacted from arguments', () => {
    const calls = Array.from({ length: 40 }, (_, i) => ({
      id: `c${i}`,
      name: 'read_file',
      arguments: '{"path": "sk-secret"}',
    }));
    const reply = asReply({ text: '', tokensIn: 1, tokensOut: 1, toolCalls: calls }, ['sk-secret']);
    expect(reply.toolCalls).toHaveLength(MAX_CALLS_PER_REPLY);
    expect(reply.toolCalls!.every((c) => !c.arguments.includes('sk-secret'))).toBe(true);
  });

  it('the cache key covers the whole transcript and the tools, and leaves one-shot keys as they were', () => {
    const identity = { endpoint: 'e', api: 'openai-chat', model: 'm', settings };
    const base = { identity, revision: 'r', promptVersion: 'p4+repo', sample: 0 };
    const key = (messages: ConversationMessage[], tools?: typeof REPO_TOOLS) =>
      responseCacheKey({ ...base, messages, ...(tools ? { tools } : {}) });
    const otherResult: ConversationMessage[] = conversation.map((m) =>
      m.role === 'tool' ? { ...m, results: [{ ...m.results[0]!, content: 'other' }] } : m,
    );
    expect(key(conversation, REPO_TOOLS)).not.toBe(key(otherResult, REPO_TOOLS));
    expect(key(conversation, REPO_TOOLS)).not.toBe(key(conversation));
    expect(key(conversation.slice(0, 2))).toBe(
      responseCacheKey({ ...base, messages: conversation.slice(0, 2), tools: [] }),
    );
  });
});
