import type { CodeContext } from '../harvest/oracle.js';
import type { Instance } from '../instances/schema.js';
import { budgetChars, formatBudget, truncateLines, type PromptBudget } from './budget.js';
import { sliceTestModule, testNamesIn } from './slice.js';

/**
 * Bumped whenever prompt wording or layout changes; goes into results and
 * response-cache keys. p2: context modes and a budget.
 */
export const PROMPT_VERSION = 'p2';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * How much code the prompt shows.
 * - `slice`: the executed target function (numbered) + the executed tests and
 *   their module's preamble (imports, fixtures, helpers), other tests omitted.
 * - `files`: the target + the whole test files.
 * - `none`: the question and template only.
 */
export const CONTEXT_MODES = ['slice', 'files', 'none'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

export interface PromptOptions {
  mode: ContextMode;
  budget: PromptBudget;
}

export const DEFAULT_PROMPT_OPTIONS: PromptOptions = {
  mode: 'slice',
  budget: { amount: 16000, unit: 'tokens' },
};

/** How results name the prompt: version, mode and budget. */
export function describePrompt(options: PromptOptions): {
  version: string;
  context: ContextMode;
  budget: string;
} {
  return { version: PROMPT_VERSION, context: options.mode, budget: formatBudget(options.budget) };
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

interface CodeSection {
  heading: string;
  body: string;
}

function codeSections(
  instance: Instance,
  context: CodeContext,
  testFiles: { name: string; source: string }[],
  mode: ContextMode,
): CodeSection[] {
  if (mode === 'none') return [];
  // The harvested context holds the target function only, so `files` shows
  // that function too (not its whole module) until the tracer records more.
  const sections = [
    {
      heading: `## Code under test: ${context.file} (${context.func})`,
      body: numberLines(context.source, context.first_line),
    },
  ];
  for (const test of testFiles) {
    const names = mode === 'slice' ? testNamesIn(test.name, instance.tests) : [];
    sections.push({
      heading: `## Test file: ${test.name}`,
      body: sliceTestModule(test.source, names),
    });
  }
  return sections;
}

/**
 * The messages for one instance: code context per `options.mode`, the
 * question and the answer template, within `options.budget` (the system
 * prompt, question and template are never cut; code is cut at line
 * boundaries, the target first served, tests after). Pure: test file
 * contents are passed in.
 */
export function buildPrompt(
  instance: Instance,
  context: CodeContext,
  testFiles: { name: string; source: string }[],
  options: PromptOptions = DEFAULT_PROMPT_OPTIONS,
): ChatMessage[] {
  const sections = codeSections(instance, context, testFiles, options.mode);
  const head = [`Question kind: ${instance.kind}`];
  const tail = [
    '',
    '## Question',
    instance.question,
    '',
    '## Answer template',
    JSON.stringify(instance.template_answer),
    '',
    'Reply with only the JSON object.',
  ];
  const frame = (s: CodeSection, body: string) => ['', s.heading, '```python', body, '```'];
  const fixed =
    SYSTEM_PROMPT.length +
    [...head, ...tail].join('\n').length +
    sections.reduce((n, s) => n + frame(s, '').join('\n').length + 1, 0);
  let left = Math.max(0, budgetChars(options.budget) - fixed);
  const parts = [...head];
  for (const section of sections) {
    const body = truncateLines(section.body, left);
    left -= body.length;
    parts.push(...frame(section, body));
  }
  parts.push(...tail);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n') },
  ];
}
