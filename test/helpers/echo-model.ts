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

/**
 * A model that answers every question with its oracle (found by the
 * question's text): what a perfect model would say. A run against it must
 * score 100%; anything less is a scorer, prompt or oracle defect.
 */
export function oracleEchoServer(oracles: Map<string, unknown>): FaultyModelServer {
  return new FaultyModelServer((prompt) => {
    const question = QUESTION.exec(prompt)?.[1];
    const answer = question === undefined ? undefined : oracles.get(question);
    return answer === undefined
      ? 'I do not know.'
      : `\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``;
  });
}
