import type { ToolCall, ToolSpec } from '../../contracts/messages.js';
import { listDir } from './list-dir.js';
import { readFile } from './read-file.js';
import { repoMap } from './repo-map.js';
import { search } from './search.js';
import type { RepoTool, ToolReply } from './tool.js';
import { fitToBytes } from './truncate.js';
import type { SourceTree } from './tree.js';

/**
 * The read-only repository tools of `context: repo`, and the one door every call goes through.
 * A reply depends only on the tree and the call (transcripts are cached by their replies), and
 * everything the model can get wrong comes back as a reply it can act on, never a throw.
 */

const TOOLS: readonly RepoTool[] = [repoMap, listDir, readFile, search];
const BY_NAME = new Map(TOOLS.map((tool) => [tool.spec.name, tool]));

/** The tools a model is offered in `context: repo` mode. */
export const REPO_TOOLS: ToolSpec[] = TOOLS.map((tool) => tool.spec);

/** How much one reply may hold. */
export interface ToolLimits {
  /** The most UTF-8 bytes of one reply, its truncation marker included. */
  resultBytes: number;
}

/** One call's reply, as the model will read it. */
export interface ToolOutcome {
  content: string;
  /** `refused`: a path or pattern the tools will not follow; `error`: a call to correct. */
  status: 'ok' | 'refused' | 'error';
  /** Whether `content` was cut to the limit (it then ends with a marker line). */
  truncated: boolean;
  /** UTF-8 byte length of `content`. */
  bytes: number;
}

/** Runs one tool call against the tree; never throws for anything in the call. */
export function runTool(tree: SourceTree, call: ToolCall, limits: ToolLimits): ToolOutcome {
  const tool = BY_NAME.get(call.name);
  if (!tool) {
    const names = TOOLS.map((t) => t.spec.name).join(', ');
    return finish(
      {
        status: 'error',
        content: `There is no tool ${JSON.stringify(call.name)}; the tools are: ${names}.`,
      },
      limits,
    );
  }
  const args = parseArguments(call);
  if (typeof args === 'string') return finish({ status: 'error', content: args }, limits);
  return finish(tool.call(tree, args), limits);
}

// The arguments as an object, or the message that says why not. Blank arguments are `{}`: some
// protocols send "" for a call that has none.
function parseArguments(call: ToolCall): Record<string, unknown> | string {
  if (call.arguments.trim() === '') return {};
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return `${call.name}: the arguments are not valid JSON (${why}); write them as one JSON object, e.g. {"path": "."}.`;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return `${call.name}: the arguments must be a JSON object of named arguments, e.g. {"path": "."}, not ${JSON.stringify(args).slice(0, 40)}.`;
  return args as Record<string, unknown>;
}

function finish(reply: ToolReply, limits: ToolLimits): ToolOutcome {
  const narrower = reply.narrower ?? 'ask for less';
  const { content, truncated } = fitToBytes(reply.content, limits.resultBytes, narrower);
  return { content, status: reply.status, truncated, bytes: Buffer.byteLength(content, 'utf8') };
}
