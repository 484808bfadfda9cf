import type { ChatMessage } from '../../contracts/messages.js';
import { heuristicAnswer } from './heuristic.js';
import { HEURISTIC_MODEL } from './server.js';
import type { ClientIdentity, Completion, ModelClient } from '../../contracts/model.js';

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

  complete(messages: ChatMessage[]): Promise<Completion> {
    const prompt = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    return Promise.resolve({
      text: heuristicAnswer(prompt),
      finishReason: 'stop',
      tokensIn: 0,
      tokensOut: 0,
      latencyMs: 0,
      retries: 0,
    });
  }
}
