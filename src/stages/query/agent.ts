import type { ConversationMessage, ToolCall } from '../../contracts/messages.js';
import type { Completion, ModelClient } from '../../contracts/model.js';
import type { ToolBudget, Transcript, TranscriptTurn } from '../../contracts/results.js';
import { REPO_TOOLS, runTool } from '../tools/tools.js';
import type { SourceTree } from '../tools/tree.js';

/**
 * The limits by default: room to find a callee in another file and read it, a base class, a
 * fixture (SWE-Flux caps its models' tool requests the same way), and an end for a model that loops.
 */
export const DEFAULT_TOOL_BUDGET: ToolBudget = {
  turns: 16,
  calls: 32,
  resultBytes: 12_000,
  tokens: 200_000,
};

/** What a turn's text and a call's arguments keep in the record: enough to see what was read. */
const TEXT_KEPT = 1000;
const ARGUMENTS_KEPT = 300;

/** Said to the model once a limit is reached: the next reply must be the answer. */
export const BUDGET_SPENT =
  'The tool budget of this question is spent: no more tool calls will run. Reply now with the ' +
  'JSON answer alone.';

/** The conversation's end: the final reply (tokens and time of every turn summed), or none. */
export type Conversation =
  | { answered: true; completion: Completion; transcript: Transcript }
  | { answered: false; reason: string; completion: Completion; transcript: Transcript };

/** Which limit a conversation has reached, if any, before its next request. */
function spent(transcript: Transcript, budget: ToolBudget, tokens: number): string | undefined {
  if (transcript.turns.length >= budget.turns - 1) return `${budget.turns} turns`;
  if (transcript.toolCalls >= budget.calls) return `${budget.calls} tool calls`;
  if (tokens >= budget.tokens) return `${budget.tokens} tokens`;
  return undefined;
}

/**
 * One question asked with the repository tools (`context: repo`): the model reads through its
 * calls (each answered from the read-only tree: src/stages/tools/) until it replies without
 * one. Limits on turns, calls and tokens: when one is reached the model is told to answer, and
 * a model that still calls tools has no answer (`no_answer`, the tool budget), never an
 * endless loop. Every turn is recorded; each request goes through `client`, so a cached
 * transcript replays without a request (the tools answer the same bytes each time).
 */
export async function converse(
  client: ModelClient,
  prompt: readonly ConversationMessage[],
  sample: number,
  tree: SourceTree,
  budget: ToolBudget,
): Promise<Conversation> {
  const messages: ConversationMessage[] = [...prompt];
  const transcript: Transcript = { turns: [], toolCalls: 0, refused: 0, errors: 0 };
  const totals = { tokensIn: 0, tokensOut: 0, latencyMs: 0, retries: 0, cached: true };
  let told = false;
  for (;;) {
    const reply = await client.complete(messages, { sample, tools: REPO_TOOLS });
    totals.tokensIn += reply.tokensIn;
    totals.tokensOut += reply.tokensOut;
    totals.latencyMs += reply.latencyMs;
    totals.retries += reply.retries;
    totals.cached &&= !!reply.cached;
    const turn: TranscriptTurn = {
      tokensIn: reply.tokensIn,
      tokensOut: reply.tokensOut,
      ...(reply.text ? { text: reply.text.slice(0, TEXT_KEPT) } : {}),
      calls: [],
    };
    transcript.turns.push(turn);
    const completion: Completion = {
      ...reply,
      ...totals,
      cached: totals.cached || undefined,
    };
    delete completion.toolCalls;
    if (!completion.cached) delete completion.cached;
    const calls = reply.toolCalls ?? [];
    if (!calls.length) return { answered: true, completion, transcript };
    if (told)
      return {
        answered: false,
        reason: `the model kept calling tools after the budget was spent (${transcript.ended})`,
        completion,
        transcript,
      };
    messages.push({ role: 'assistant', content: reply.text, toolCalls: calls });
    messages.push({
      role: 'tool',
      results: calls.map((c) => answerCall(c, tree, budget, turn, transcript)),
    });
    const limit = spent(transcript, budget, totals.tokensIn + totals.tokensOut);
    if (limit) {
      transcript.ended = limit;
      told = true;
      messages.push({ role: 'user', content: BUDGET_SPENT });
    }
  }
}

/** One call answered (or refused past the call limit), counted and recorded in its turn. */
function answerCall(
  call: ToolCall,
  tree: SourceTree,
  budget: ToolBudget,
  turn: TranscriptTurn,
  transcript: Transcript,
): { id: string; name: string; content: string } {
  const over = transcript.toolCalls >= budget.calls;
  const outcome = over
    ? {
        content: `Not run: the budget of ${budget.calls} tool calls is spent.`,
        status: 'budget' as const,
        truncated: false,
        bytes: 0,
      }
    : runTool(tree, call, { resultBytes: budget.resultBytes });
  if (!over) transcript.toolCalls++;
  if (outcome.status === 'refused') transcript.refused++;
  if (outcome.status === 'error') transcript.errors++;
  turn.calls.push({
    name: call.name,
    arguments: call.arguments.slice(0, ARGUMENTS_KEPT),
    status: outcome.status,
    bytes: outcome.bytes,
    ...(outcome.truncated ? { truncated: true } : {}),
  });
  return { id: call.id, name: call.name, content: outcome.content };
}
