import type { CodeContext, CodeSlice } from '../../contracts/oracle.js';
import type { Instance, Template } from '../../contracts/instance.js';
import type { ChatMessage } from '../../contracts/messages.js';
import { budgetChars, formatBudget, truncateLines, type PromptBudget } from './budget.js';
import { numberLines } from './number-lines.js';
import { sliceTestModule, testNamesIn } from './slice.js';

/**
 * Bumped whenever prompt wording or layout changes; goes into results and
 * response-cache keys. p2: context modes and a budget. p3: `slice` shows the
 * target module's preamble and the functions executed under the target. p4:
 * `slice` shows the functions the target may reach, found by reading source
 * (never what ran), in source order.
 */
export const PROMPT_VERSION = 'p4';

export type { ChatMessage };

/**
 * How much code the prompt shows.
 * - `slice`: the target function (numbered), the target module's preamble
 *   (imports, constants) and the functions of its package the target may
 *   reach by static resolution (numbered, `## May be called: FILE (FUNC)`,
 *   source order, whether or not they run in this test; the tracer finds them
 *   before anything runs), + the executed tests and their module's preamble
 *   (imports, fixtures, helpers), other tests omitted.
 * - `files`: the target + the whole test files.
 * - `none`: the question and template only.
 * - `repo`: no code; where the target and the tests are, and read-only tools over the
 *   environment's source (SWE-Flux's setting: the model decides what to read).
 */
export const CONTEXT_MODES = ['slice', 'files', 'none', 'repo'] as const;
export type ContextMode = (typeof CONTEXT_MODES)[number];

export interface PromptOptions {
  mode: ContextMode;
  budget: PromptBudget;
}

export const DEFAULT_PROMPT_OPTIONS: PromptOptions = {
  mode: 'slice',
  budget: { amount: 16000, unit: 'tokens' },
};

/**
 * What a run's scores are comparable under: the prompt's version, and its context mode past the
 * default (`p4+repo`): runs of two modes are two measurements, never paired.
 */
export function promptId(mode: ContextMode): string {
  return mode === 'slice' ? PROMPT_VERSION : `${PROMPT_VERSION}+${mode}`;
}

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

export { numberLines };

interface CodeSection {
  heading: string;
  body: string;
  /** Budget order: lower is served first (layout order breaks ties). */
  serve: number;
}

/** The preamble's blocks, numbered, with an elision line between non-adjacent blocks. */
function numberBlocks(blocks: readonly { first_line: number; source: string }[]): string {
  return blocks.map((b) => numberLines(b.source, b.first_line)).join('\n      …\n');
}

/** The reachable functions and module preamble of `slice` mode (target excluded). */
function sliceSections(slice: CodeSlice): CodeSection[] {
  const sections: CodeSection[] = [];
  if (slice.preamble.blocks.length) {
    const more = slice.preamble.truncated ? '\n# … rest of the preamble omitted' : '';
    sections.push({
      heading: `## Module preamble: ${slice.preamble.file}`,
      body: numberBlocks(slice.preamble.blocks) + more,
      serve: 2,
    });
  }
  slice.functions.forEach((fn) => {
    sections.push({
      heading: `## May be called: ${fn.file} (${fn.func})`,
      body: numberLines(fn.source, fn.first_line),
      serve: 1,
    });
  });
  const notes = [
    ...(slice.named.length
      ? [`# Also reachable, not shown (over the budget): ${slice.named.join(', ')}`]
      : []),
    ...(slice.unresolved.length
      ? [`# Calls resolved only at run time (not followed): ${slice.unresolved.join(', ')}`]
      : []),
  ];
  if (notes.length) sections.push({ heading: '## Not shown', body: notes.join('\n'), serve: 1 });
  return sections;
}

/** The environment an answer may depend on, in one line (`Environment: Python 3.11.2; click 8.1.7`). */
function environmentLine(context: CodeContext): string[] {
  const env = context.environment;
  if (!env) return [];
  const packages = Object.entries(env.packages).map(([name, version]) => `${name} ${version}`);
  return [`Environment: Python ${env.python}${packages.length ? `; ${packages.join(', ')}` : ''}`];
}

/** One example call of a B1/B2 prompt: its input as a reply would give it, then what it did. */
function describeCall(call: NonNullable<CodeContext['calls']>[number]): string {
  const printed = call.stdout ? `, printing ${JSON.stringify(call.stdout)}` : '';
  const result =
    call.outcome === 'ok'
      ? `returns ${call.return ?? ''}${printed}`
      : call.outcome === 'crash'
        ? `raises ${call.exception ?? 'an exception'}${printed}`
        : 'runs past the time limit';
  return `input ${JSON.stringify(call.input)}: ${result}`;
}

/** B1/B2's example calls: part of the question, shown in every mode that shows anything. */
function callSections(context: CodeContext): CodeSection[] {
  return context.calls?.length
    ? [
        {
          heading: '## How it is called (inputs on which the bug does not show)',
          body: context.calls.map(describeCall).join('\n'),
          serve: 0,
        },
      ]
    : [];
}

/**
 * `repo`: where to look, never what is there — the target's file, name and first line (read
 * from the source, as the slice's are) and the tests' ids; the model reads the rest.
 */
function whereToLook(instance: PromptInstance, context: CodeContext): string[] {
  return [
    '',
    '## Where to look',
    `Code under test: ${context.file}, function ${context.func} (defined from line ${context.first_line}).`,
    `Test(s): ${instance.tests.join(', ')}` +
      (context.tests?.length
        ? ` (test files at the repository's root: ${context.tests.map((t) => t.name).join(', ')}).`
        : '.'),
    'The code is not shown here. Read what you need with the tools (repo_map, list_dir, ' +
      'read_file, search): they see the source as the tests import it. When you know the ' +
      'answer, reply with the JSON object alone, without a tool call.',
  ];
}

function codeSections(
  instance: Pick<Instance, 'tests'>,
  context: CodeContext,
  testFiles: { name: string; source: string }[],
  mode: ContextMode,
): CodeSection[] {
  if (mode === 'none') return [];
  if (mode === 'repo') return callSections(context);
  // The harvested context holds the target function and (newer oracles) the
  // executed slice; `files` shows the target function (not its whole module).
  const sections: CodeSection[] = [
    {
      heading: `## Code under test: ${context.file} (${context.func})`,
      body: numberLines(context.source, context.first_line),
      serve: 0,
    },
  ];
  sections.push(...callSections(context));
  if (mode === 'slice' && context.slice) sections.push(...sliceSections(context.slice));
  for (const test of testFiles) {
    const names = mode === 'slice' ? testNamesIn(test.name, instance.tests) : [];
    sections.push({
      heading: `## Test file: ${test.name}`,
      body: sliceTestModule(test.source, names),
      serve: 3,
    });
  }
  return sections;
}

/**
 * What a prompt asks: the instance's kind and tests, and the question text and
 * answer template as harvested with the oracle (generated by the tracer from
 * the instance's query, so the wording matches the rule that made the answer).
 */
export type PromptInstance = Pick<Instance, 'kind' | 'tests'> & {
  question: string;
  template_answer: Template;
};

/**
 * The messages for one instance: code context per `options.mode`, the
 * question and the answer template, within `options.budget` (the system
 * prompt, question and template are never cut; code is cut at line
 * boundaries, served in order: the target, the reachable functions (in source
 * order) and what was not shown, the module preamble, then the tests). Pure: test file
 * contents are passed in.
 */
export function buildPrompt(
  instance: PromptInstance,
  context: CodeContext,
  testFiles: { name: string; source: string }[],
  options: PromptOptions = DEFAULT_PROMPT_OPTIONS,
): ChatMessage[] {
  const sections = codeSections(instance, context, testFiles, options.mode);
  const head = [
    `Question kind: ${instance.kind}`,
    ...environmentLine(context),
    ...(options.mode === 'repo' ? whereToLook(instance, context) : []),
  ];
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
  // Served in budget order (stable: layout order within a rank), laid out in section order.
  const bodies = new Map<CodeSection, string>();
  for (const section of [...sections].sort((a, b) => a.serve - b.serve)) {
    const body = truncateLines(section.body, left);
    left -= body.length;
    bodies.set(section, body);
  }
  const parts = [...head];
  for (const section of sections) parts.push(...frame(section, bodies.get(section)!));
  parts.push(...tail);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: parts.join('\n') },
  ];
}
