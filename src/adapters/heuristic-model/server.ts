import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { heuristicAnswer } from './heuristic.js';
import { referenceAgentStep } from './agent.js';

export interface RunningServer {
  /** API base URL, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  close(): Promise<void>;
}

/** The model name the built-in demo model answers to. */
export const HEURISTIC_MODEL = 'tracegate-demo-heuristic';

/**
 * A regressed checkpoint of the demo model, for the demo's gate: the same
 * heuristic, but three replies in four (chosen by the prompt's hash, so the
 * same each run) are cut off half-way, as a checkpoint whose generations
 * stop early would answer. It never reads an oracle either.
 */
export const HEURISTIC_REGRESSED_MODEL = 'tracegate-demo-heuristic-regressed';

const MODELS = [HEURISTIC_MODEL, HEURISTIC_REGRESSED_MODEL];

/** The regressed checkpoint's reply: cut off on three prompts in four. */
function regressed(prompt: string, content: string): { content: string; finish: string } {
  const cut = createHash('sha256').update(prompt).digest()[0]! % 4 !== 0;
  return cut
    ? { content: content.slice(0, Math.floor(content.length / 2)), finish: 'length' }
    : { content, finish: 'stop' };
}

/**
 * The built-in demo model: a real OpenAI-compatible HTTP server on
 * loopback (POST /v1/chat/completions, GET /v1/models) whose "model" is the
 * static heuristic. Used by the demo and as a known peer in tests.
 */
export async function startHeuristicServer(port = 0): Promise<RunningServer> {
  const server: Server = createServer((req, res) => {
    void handle(req).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      },
      (error: Error) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: error.message, type: 'invalid_request_error' } }),
        );
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const path = (req.url ?? '').replace(/\?.*$/, '');
  if (req.method === 'GET' && path.endsWith('/models')) {
    return {
      status: 200,
      body: { object: 'list', data: MODELS.map((id) => ({ id, object: 'model' })) },
    };
  }
  if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
    return { status: 404, body: { error: { message: `no route ${req.method} ${path}` } } };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    model?: string;
    messages?: { role: string; content: string | null }[];
    tools?: unknown[];
  };
  if (!MODELS.includes(request.model ?? '')) {
    return {
      status: 404,
      body: {
        error: {
          message: `The model \`${request.model}\` does not exist. Available: ${MODELS.join(', ')}`,
        },
      },
    };
  }
  const messages = request.messages ?? [];
  if (request.tools?.length) return agentTurn(request.model!, messages);
  const prompt = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const answer = heuristicAnswer(prompt);
  const { content, finish } =
    request.model === HEURISTIC_REGRESSED_MODEL
      ? regressed(prompt, answer)
      : { content: answer, finish: 'stop' };
  return {
    status: 200,
    body: {
      id: 'chatcmpl-baseline',
      object: 'chat.completion',
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
      usage: {
        prompt_tokens: Math.ceil(prompt.length / 4),
        completion_tokens: Math.ceil(content.length / 4),
      },
    },
  };
}

/** Offered tools (`context: repo`): the reference agent's next step, a tool call or the answer. */
function agentTurn(
  model: string,
  messages: { role: string; content: string | null }[],
): { status: number; body: unknown } {
  const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  const step = referenceAgentStep(prompt, results);
  const message =
    'call' in step
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `call_${results.length}`, type: 'function', function: step.call }],
        }
      : {
          role: 'assistant',
          content:
            model === HEURISTIC_REGRESSED_MODEL ? regressed(prompt, step.text).content : step.text,
        };
  const sent = messages.reduce((n, m) => n + (m.content?.length ?? 0), 0);
  return {
    status: 200,
    body: {
      id: 'chatcmpl-agent',
      object: 'chat.completion',
      model,
      choices: [{ index: 0, message, finish_reason: 'call' in step ? 'tool_calls' : 'stop' }],
      usage: {
        prompt_tokens: Math.ceil(sent / 4),
        completion_tokens: Math.ceil(('call' in step ? step.call.arguments : step.text).length / 4),
      },
    },
  };
}
