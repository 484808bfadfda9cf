import { z } from 'zod';
import type { ToolSpec } from '../../contracts/messages.js';
import type { Lookup, SourceTree } from './tree.js';

/** What one tool answered, before the reply is fitted to its byte limit. */
export interface ToolReply {
  status: 'ok' | 'refused' | 'error';
  content: string;
  /** What to ask for instead, should the reply be cut (ends the truncation marker). */
  narrower?: string;
}

/** A repository tool: what the model is told about it, and the call itself. */
export interface RepoTool {
  spec: ToolSpec;
  /** Checks the (already JSON-parsed) arguments against the tool's schema, then runs it. */
  call(tree: SourceTree, args: unknown): ToolReply;
}

/**
 * A tool from its zod schema: the JSON Schema the model sees is generated from the schema the
 * arguments are checked with, so the two cannot disagree.
 */
export function defineTool<S extends z.ZodType<Record<string, unknown>>>(tool: {
  name: string;
  description: string;
  args: S;
  /** A valid call's arguments (JSON), shown when the model's were not. */
  example: string;
  run(tree: SourceTree, args: z.output<S>): ToolReply;
}): RepoTool {
  // `$schema` names the draft; the model's protocols want only the schema itself.
  const parameters: Record<string, unknown> = z.toJSONSchema(tool.args, { io: 'input' });
  delete parameters.$schema;
  parameters.required ??= []; // zod leaves it out when every argument is optional
  return {
    spec: { name: tool.name, description: tool.description, parameters },
    call(tree, args) {
      const parsed = tool.args.safeParse(args);
      if (parsed.success) return tool.run(tree, parsed.data);
      const problems = parsed.error.issues.map(describeIssue).join('; ');
      return error(`${tool.name}: ${problems}. Call it again with arguments like ${tool.example}.`);
    },
  };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `it takes no argument ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  const where = issue.path.length ? `argument "${issue.path.join('.')}"` : 'the arguments';
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined'))
    return `${where} is required (${issue.expected})`;
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** A reply that is an error the model can correct. */
export function error(content: string): ToolReply {
  return { status: 'error', content };
}

/** The reply for a lookup that found nothing to show: refused, missing, or omitted. */
export function notFound(found: Exclude<Lookup, { kind: 'file' | 'dir' }>): ToolReply {
  if (found.kind === 'refused') return { status: 'refused', content: found.message };
  if (found.kind === 'missing') return error(found.message);
  return {
    status: 'refused',
    content: `${JSON.stringify(found.path)} is not shown (${found.why}); read another file, or search for its name to find where it is used.`,
  };
}

/** A file's lines, numbered from 1 by index + 1 (a final newline ends the last, an empty file has none). */
export function fileLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\n$/, '').split('\n');
}

/** How a path is named in a reply: the root as `.`. */
export function displayPath(path: string): string {
  return path === '' ? '.' : path;
}
