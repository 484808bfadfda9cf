import { readReportingInputs } from '../../src/app/config/action-inputs.js';
import { UsageError } from '../../src/errors.js';

const runner = (inputs: Record<string, string>) => ({
  input: (name: string) => inputs[name] ?? '',
  setSecret: () => {},
});

describe('the Action input image-cache', () => {
  it.each([
    ['', 2 * 1024 ** 3],
    ['2GB', 2 * 1024 ** 3],
    ['500MB', 500 * 1024 ** 2],
    ['1.5 gb', Math.round(1.5 * 1024 ** 3)],
    ['off', 0],
  ])('%j is a budget of %d bytes', (given, bytes) => {
    expect(readReportingInputs(runner({ 'image-cache': given }))['image-cache']).toBe(bytes);
  });

  it.each(['lots', '2', '-1GB', '2TB', 'GB'])('refuses %j, saying what it takes', (given) => {
    const read = () => readReportingInputs(runner({ 'image-cache': given }));
    expect(read).toThrow(UsageError);
    expect(read).toThrow('input image-cache must be a size such as 2GB or 500MB, or off');
  });
});
