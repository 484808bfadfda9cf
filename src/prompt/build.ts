import type { CodeContext } from '../harvest/oracle.js';
import type { Instance } from '../instances/schema.js';

/** Bumped whenever prompt wording changes; goes into results (and response-cache keys). */
export const PROMPT_VERSION = 'p1';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const SYSTEM_PROMPT =
  'You predict what Python code does when it actually runs. Read the code and the test, answer ' +
  'the question, and reply with exactly one JSON object that matches the answer template: same keys, ' +
  'values of the stated types. No prose, no markdown.';

/** Source lines prefixed by their absolute 1-based line numbers, as the answers use them. */
export function numberLines(source: string, firstLine: number): string {
  return source
    .replace(/\n$/, '')
    .split('\n')
    .map((line, i) => `${String(firstLine + i).padStart(5)}  ${line}`)
    .join('\n');
}

/**
 * The messages for one instance: the executed target's source (numbered),
 * the test file(s), the question and the answer template. Pure: test file
 * contents are passed in.
 */
export function buildPrompt(
  instance: Instance,
  context: CodeContext,
  testFiles: { name: string; source: string }[],
): ChatMessage[] {
  const parts = [
    `Question kind: ${instance.kind}`,
    '',
    `## Code under test: ${context.file} (${context.func})`,
    '```python',
    numberLines(context.source, context.first_line),
    '```',
  ];
  for (const test of testFiles) {
    parts.push(
      '',
      `## Test file: ${test.name}`,
      '```python',
      test.source.replace(/\n$/, ''),
      '```',
    );
  }
  parts.push(
    '',
    '## Question',
    instance.question,
    '',
    '## Answer template',
    JSON.stringify(instance.template_answer),
    '',
    'Reply with only the JSON object.',
  );
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n') },
  ];
}
