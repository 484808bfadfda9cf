import type { ConversationMessage } from '../../contracts/messages.js';
import { referenceAgentStep } from './agent.js';
import { heuristicAnswer } from './heuristic.js';
import { HEURISTIC_MODEL } from './server.js';
import type {
  ClientIdentity,
  CompleteOptions,
  Completion,
  ModelClient,
} from '../../contracts/model.js';

/**
 * The demo model in process: the same answers its HTTP server gives, with no
 * transport. The generator's screen asks it every candidate (an instance it
 * gets right is not kept).
 */
export class HeuristicClient implements ModelClient {
  readonly endpoint = 'in-process:heuristic';
  readonly identity: ClientIdentity = {
    endpoint: this.endpoint,
    api: 'in-process',
    model: HEURISTIC_MODEL,
    settings: { temperature: 0, maxTokens: 2048 },
  };

  complete(messages: ConversationMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const said = { finishReason: 'stop', tokensIn: 0, tokensOut: 0, latencyMs: 0, retries: 0 };
    if (options.tools?.length) {
      const prompt = messages.find((m) => m.role === 'user');
      const results = messages.flatMap((m) => (m.role === 'tool' ? m.results : []));
      const step = referenceAgentStep(
        prompt && 'content' in prompt ? prompt.content : '',
        results.map((r) => r.content),
      );
      return Promise.resolve(
        'call' in step
          ? { ...said, text: '', toolCalls: [{ id: `call_${results.length}`, ...step.call }] }
          : { ...said, text: step.text },
      );
    }
    const prompt = messages.filter((m) => m.role === 'user').at(-1);
    return Promise.resolve({
      ...said,
      text: heuristicAnswer(prompt && 'content' in prompt ? prompt.content : ''),
    });
  }
}
