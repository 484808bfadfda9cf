/**
 * What a question asks, without the parts every question of its family
 * shares. The tracer's questions (tracer/tracegate_tracer/prompt/questions.py
 * `render`) read: how to run the tests, which function is the target, [the
 * seeded change], the asking sentence(s), the definitions, the answer's shape.
 * SWE-Flux's open with "Run `test`." and then ask. The excerpt is the target
 * and the asking sentences; a question of any other shape is kept whole.
 */
export interface QuestionExcerpt {
  /** The target function's dotted name, when the question names it in the tracer's words. */
  target?: string;
  /** The question's code was changed for it (a seeded mutant): the line, and the file. */
  changed?: { line: string; file: string };
  /** The asking sentence(s). */
  ask: string;
}

const RUN_TESTS = /^Run the tests? .*?\((?:a pytest id|pytest ids)\)\.\s+/s;
const RUN_SWE_FLUX = /^Run `[^`]*`\.\s+/;
const TARGET =
  /^The target function is `([^`]+)` \(qualified name `[^`]*`\) in `[^`]*`[^;]*; "the target" below means it\.\s*/;
const CHANGED =
  /^The repository's code is changed for this question: on line (\d+) of `([^`]*)`, .*?\(the code shown is the changed code\)\.\s*/s;
/** Where the asking ends: the definitions, or the answer's shape when there are none. */
const TAIL = /\s+(?:Definitions: |Answer as JSON of exactly this shape)/;

export function questionExcerpt(question: string): QuestionExcerpt {
  let rest = question.trim();
  const run = RUN_TESTS.exec(rest) ?? RUN_SWE_FLUX.exec(rest);
  if (run) rest = rest.slice(run[0].length);
  const target = TARGET.exec(rest);
  if (target) rest = rest.slice(target[0].length);
  const changed = CHANGED.exec(rest);
  if (changed) rest = rest.slice(changed[0].length);
  const tail = TAIL.exec(rest);
  if (tail) rest = rest.slice(0, tail.index);
  return {
    ...(target ? { target: target[1]! } : {}),
    ...(changed ? { changed: { line: changed[1]!, file: changed[2]! } } : {}),
    // A question that was all boilerplate keeps its text.
    ask: rest.trim() || question.trim(),
  };
}
