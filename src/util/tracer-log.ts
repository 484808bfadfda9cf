/**
 * A line the tracer writes for every instance that went well (`tracegate: 'ID' ok (1.2s)`): each
 * instance runs twice, so these were two lines an instance in every log. They are not shown; a
 * line about anything else (a failure, a warning) is.
 */
const OK_LINE = /^tracegate: '[^']*' ok \(\d+(\.\d+)?s\)$/;

export function isRoutineTracerLine(line: string): boolean {
  // TRACEGATE_VERBOSE=1 shows them (a test that waits for an instance's runs reads them).
  return process.env.TRACEGATE_VERBOSE !== '1' && OK_LINE.test(line);
}
