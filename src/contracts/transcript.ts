import { z } from 'zod';

/** What a model read through its repository tools (`context: repo`), as records keep it. */

/** The limits of one question asked with the repository tools (`context: repo`). */
export const toolBudgetSchema = z.strictObject({
  /** Requests at most, the answer's included. */
  turns: z.number().int().min(2),
  /** Tool calls run at most. */
  calls: z.number().int().min(1),
  /** Bytes of one tool result at most (a longer one is cut, with a marker). */
  resultBytes: z.number().int().min(256),
  /** Tokens in and out of all the question's requests: past this, the model is told to answer. */
  tokens: z.number().int().min(1),
});
export type ToolBudget = z.infer<typeof toolBudgetSchema>;

/** One request of a conversation with tools: its tokens, its text (cut), the calls it made. */
export const transcriptTurnSchema = z.object({
  tokensIn: z.number(),
  tokensOut: z.number(),
  /** The reply's text, cut at 1,000 characters (the last turn's is the answer). */
  text: z.string().optional(),
  calls: z.array(
    z.object({
      name: z.string(),
      /** The arguments as the model wrote them, cut at 300 characters. */
      arguments: z.string(),
      /** `refused`: a path outside the tree; `error`: a call the tools could not run; `budget`: not run. */
      status: z.enum(['ok', 'refused', 'error', 'budget']),
      /** The result's size in bytes, as the model got it. */
      bytes: z.number().int(),
      truncated: z.boolean().optional(),
    }),
  ),
});
export type TranscriptTurn = z.infer<typeof transcriptTurnSchema>;

/** What a model read before it answered (`context: repo`), turn by turn, with the counts. */
export const transcriptSchema = z.object({
  turns: z.array(transcriptTurnSchema),
  toolCalls: z.number().int(),
  refused: z.number().int(),
  errors: z.number().int(),
  /** The limit that ended the reading, when one did (`16 turns`, `32 tool calls`, …). */
  ended: z.string().optional(),
});
export type Transcript = z.infer<typeof transcriptSchema>;
