import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaultyModelServer } from './model-server.js';

/** The question of a prompt, as the prompt builder lays it out (prompt/build.ts). */
const QUESTION = /^## Question\n([\s\S]*?)\n\n## Answer template/m;

/** Every oracle of a cache directory: question → oracle answer. */
export function cachedOracles(cache: string): Map<string, unknown> {
  const oracles = new Map<string, unknown>();
  const root = join(cache, 'oracles');
  for (const key of readdirSync(root)) {
    try {
      const oracle = JSON.parse(readFileSync(join(root, key, 'oracle.json'), 'utf8')) as {
        question: string;
        oracle_answer: unknown;
      };
      oracles.set(oracle.question, oracle.oracle_answer);
    } catch {
      // not an oracle entry
    }
  }
  return oracles;
}

/** Every oracle of a cache directory with the code its prompt shows (its context's source and first line). */
export function cachedOracleEntries(cache: string): OracleEntry[] {
  const root = join(cache, 'oracles');
  return readdirSync(root).flatMap((key) => {
    try {
      const read = (name: string) =>
        JSON.parse(readFileSync(join(root, key, name), 'utf8')) as Record<string, unknown>;
      const oracle = read('oracle.json');
      const context = read('context.json');
      return [
        {
          question: oracle.question as string,
          answer: oracle.oracle_answer,
          source: context.source as string,
          firstLine: context.first_line as number,
        },
      ];
    } catch {
      return [];
    }
  });
}

export interface OracleEntry {
  question: string;
  answer: unknown;
  source: string;
  firstLine: number;
}

/** How many of an entry's numbered source lines the prompt shows (prompt/build.ts numbers them so). */
function shown(entry: OracleEntry, prompt: string): number {
  return entry.source
    .replace(/\n$/, '')
    .split('\n')
    .filter((line, i) => prompt.includes(`${String(entry.firstLine + i).padStart(5)}  ${line}\n`))
    .length;
}

/**
 * The entry a prompt asks about: its question, and where two oracles ask the same question of
 * different code (B1/B2's bugs of one function), the one whose numbered lines the prompt shows most.
 */
function entryFor(entries: OracleEntry[], question: string, prompt: string): unknown {
  const asked = entries.filter((e) => e.question === question);
  if (asked.length <= 1) return asked[0]?.answer;
  return asked.reduce((best, e) => (shown(e, prompt) > shown(best, prompt) ? e : best)).answer;
}

/**
 * A model that answers every question with its oracle (found by the
 * question's text, and by the code shown where two oracles ask the same
 * question of different code: B1/B2's bugs): what a perfect model would
 * say. A run against it must score 100%; anything less is a scorer, prompt
 * or oracle defect.
 */
export function oracleEchoServer(oracles: Map<string, unknown> | OracleEntry[]): FaultyModelServer {
  return new FaultyModelServer((prompt) => {
    const question = QUESTION.exec(prompt)?.[1];
    const answer =
      question === undefined
        ? undefined
        : Array.isArray(oracles)
          ? entryFor(oracles, question, prompt)
          : oracles.get(question);
    return answer === undefined
      ? 'I do not know.'
      : `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``;
  });
}

/** The `## Where to look` line of a `context: repo` prompt: the target's file. */
const TARGET_FILE = /^Code under test: (\S+), function /m;

/**
 * The echo model as an agent (`context: repo`): it first reads the target's file through
 * `read_file`, then answers every question with its oracle. Each tool result it got is kept in
 * `read`, so a test sees what the tools answered.
 */
export function oracleEchoAgent(oracles: Map<string, unknown>): FaultyModelServer & {
  read: string[];
} {
  const read: string[] = [];
  const server = new FaultyModelServer((_last, request) => {
    const messages = request.body.messages as { role: string; content: string | null }[];
    const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
    const results = messages.filter((m) => m.role === 'tool');
    const file = TARGET_FILE.exec(prompt)?.[1];
    if (file && !results.length)
      return { toolCalls: [{ name: 'read_file', arguments: JSON.stringify({ path: file }) }] };
    if (results.length) read.push(results.at(-1)!.content ?? '');
    const answer = oracles.get(QUESTION.exec(prompt)?.[1] ?? '');
    return answer === undefined ? 'I do not know.' : JSON.stringify(answer);
  });
  return Object.assign(server, { read });
}
