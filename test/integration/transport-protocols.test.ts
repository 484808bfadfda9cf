import { ANTHROPIC_VERSION } from '../../src/adapters/model/anthropic.js';
import { createModelClient } from '../../src/adapters/model/factory.js';
import { API_NAMES, type ApiName } from '../../src/adapters/model/protocols.js';
import { FaultyModelServer } from '../helpers/model-server.js';

const messages = [
  { role: 'system' as const, content: 'Reply with JSON only.' },
  { role: 'user' as const, content: 'What is 2+2?' },
];
const settings = {
  temperature: 0.3,
  maxTokens: 99,
  topP: 0.9,
  seed: 7,
  stop: ['\n\n\n'],
  extraBody: { top_k: 20, chat_template_kwargs: { enable_thinking: false } },
};

async function exchange(api: ApiName, reply = { content: '{"v": 4}', reasoning: 'two and two' }) {
  const server = new FaultyModelServer(() => ({ ...reply, finishReason: 'length' }));
  const url = await server.start();
  try {
    const client = createModelClient({
      api,
      endpoint: url,
      model: 'ckpt',
      apiKey: 'k-123456',
      settings,
      timeoutMs: 2000,
      retries: 0,
    });
    const completion = await client.complete(messages, { sample: 2 });
    return { completion, request: server.seen[0]!, identity: client.identity };
  } finally {
    await server.stop();
  }
}

describe('one client per protocol behind one interface', () => {
  it('lists every protocol by its --api name', () => {
    expect(API_NAMES).toEqual(['openai-chat', 'openai-completions', 'anthropic']);
  });

  it('openai-chat: messages, settings, extra body, bearer key; reasoning_content kept apart', async () => {
    const { completion, request, identity } = await exchange('openai-chat');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer k-123456');
    expect(request.body).toEqual({
      model: 'ckpt',
      messages,
      temperature: 0.3,
      max_tokens: 99,
      top_p: 0.9,
      seed: 9, // seed + sample index
      stop: ['\n\n\n'],
      top_k: 20,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(completion).toMatchObject({
      text: '{"v": 4}',
      reasoning: 'two and two',
      finishReason: 'length',
      tokensIn: 10,
      tokensOut: 5,
      retries: 0,
    });
    expect(identity).toMatchObject({ api: 'openai-chat', model: 'ckpt', settings });
    expect(identity.endpoint.endsWith('/v1')).toBe(true);
  });

  it('openai-completions: one plain-text prompt for a base checkpoint', async () => {
    const { completion, request } = await exchange('openai-completions');
    expect(request.path).toBe('/v1/completions');
    expect(request.body.messages).toBeUndefined();
    expect(request.body.prompt).toBe(
      'Reply with JSON only.\n\nWhat is 2+2?\n\nAnswer (one JSON object):\n',
    );
    expect(request.body).toMatchObject({ model: 'ckpt', max_tokens: 99, seed: 9, top_k: 20 });
    expect(completion).toMatchObject({ text: '{"v": 4}', finishReason: 'length' });
  });

  it('anthropic: system as a field, x-api-key and version headers, thinking kept apart', async () => {
    const { completion, request } = await exchange('anthropic');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('k-123456');
    expect(request.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      model: 'ckpt',
      system: 'Reply with JSON only.',
      messages: [{ role: 'user', content: 'What is 2+2?' }],
      max_tokens: 99,
      stop_sequences: ['\n\n\n'],
    });
    expect(request.body.seed).toBeUndefined();
    expect(completion).toMatchObject({
      text: '{"v": 4}',
      reasoning: 'two and two',
      finishReason: 'length', // max_tokens, normalised
      tokensIn: 10,
      tokensOut: 5,
    });
  });
});
