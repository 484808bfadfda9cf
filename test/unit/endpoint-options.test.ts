import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { USAGE } from '../../src/doors/cli/commands.js';
import { toRunDeps, toRunInput } from '../../src/app/config/assemble.js';
import { loadSuite } from '../../src/adapters/suite/load.js';
import { parseRunOptions, RUN_OPTION_NAMES } from '../../src/app/config/options.js';
import { FIXTURE_SUITE, FIXTURES } from '../helpers/cli.js';

const required = { endpoint: 'http://127.0.0.1:9/v1', model: 'm' };
const logger = { log: () => {}, warn: () => {} };
const suite = () => loadSuite(FIXTURE_SUITE);

describe('endpoint options: one name for the CLI flag and the Action input', () => {
  it('every run option is an input of action.yml and a flag in the usage text', () => {
    const actionYml = readFileSync(join(FIXTURES, '..', '..', 'action.yml'), 'utf8');
    for (const name of RUN_OPTION_NAMES) {
      expect(actionYml).toMatch(new RegExp(`^  ${name}:$`, 'm'));
      expect(USAGE).toContain(`--${name}`);
    }
  });

  it('parses the new options into typed settings', () => {
    const options = parseRunOptions({
      ...required,
      api: 'anthropic',
      'model-revision': 'sha256:abc',
      samples: '5',
      'top-p': '0.95',
      'generation-seed': '11',
      stop: '["</answer>", "\\n\\n\\n"]',
      'extra-body': '{"top_k": 20}',
      context: 'files',
      'context-budget': '12000t',
      'time-budget': '900',
      scoring: 'swe-flux',
    });
    const input = toRunInput(options, []);
    expect(input.query.model.revision).toBe('sha256:abc');
    expect(input.query.config).toEqual({
      samples: 5,
      prompt: { mode: 'files', budget: { amount: 12000, unit: 'tokens' } },
      concurrency: 4,
      scoring: 'swe-flux',
      worldFactor: 2,
    });
    expect(input.gate.scorer).toBe('swe-flux-compat@2');
    expect(toRunInput(parseRunOptions(required), []).gate.scorer).toBe('tracegate-strict@3');
    expect(() => parseRunOptions({ ...required, scoring: 'lenient' })).toThrow(
      '--scoring must be one of strict, swe-flux',
    );
    // Another world-model factor is another rule: it is part of the scorer's identity.
    const wide = toRunInput(parseRunOptions({ ...required, 'world-factor': '3' }), []);
    expect({ scorer: wide.gate.scorer, factor: wide.query.config.worldFactor }).toEqual({
      scorer: 'tracegate-strict@3+world-factor=3',
      factor: 3,
    });
    expect(() => parseRunOptions({ ...required, 'world-factor': '0.5' })).toThrow(/world-factor/);
    const { client, stores } = toRunDeps(options, logger, suite());
    const responseCache = stores.responses;
    expect(client.identity).toEqual({
      endpoint: 'http://127.0.0.1:9/v1',
      api: 'anthropic',
      model: 'm',
      settings: {
        temperature: 0,
        maxTokens: 2048,
        topP: 0.95,
        seed: 11,
        stop: ['</answer>', '\n\n\n'],
        extraBody: { top_k: 20 },
      },
    });
    expect(responseCache).toBeDefined();
    expect(parseRunOptions({ ...required, stop: 'END' }).stop).toEqual(['END']);
  });

  it('defaults: openai-chat, one sample, slice context within 16000 tokens', () => {
    const options = parseRunOptions(required);
    expect(options).toMatchObject({
      api: 'openai-chat',
      samples: 1,
      context: 'slice',
      'context-budget': { amount: 16000, unit: 'tokens' },
    });
    expect(toRunInput(options, [], 'deadbeef').query.model.revision).toBe('deadbeef');
  });

  it.each([
    [{ api: 'grpc' }, /--api must be one of openai-chat, openai-completions, anthropic/],
    [{ samples: '0' }, /--samples must be an integer in 1\.\.100, got "0"/],
    [{ 'extra-body': '[1]' }, /--extra-body must be a JSON object/],
    [{ 'extra-body': '{top_k: 1}' }, /--extra-body must be a JSON object/],
    [{ stop: '[1, 2]' }, /--stop must be a string or a JSON array of strings/],
    [{ context: 'all' }, /--context must be one of slice, files, none/],
    [{ 'context-budget': 'big' }, /--context-budget must be a positive count/],
    [{ 'top-p': '1.5' }, /--top-p must be a number in 0\.\.1/],
    [{ 'time-budget': '0' }, /--time-budget must be a number/],
  ])('rejects %j naming the option and the value', (bad, message) => {
    expect(() => parseRunOptions({ ...required, ...bad })).toThrow(message);
  });

  it('normalises the endpoint once, when parsing: the client takes it as parsed', () => {
    const options = parseRunOptions({ ...required, endpoint: 'http://127.0.0.1:9/v1//' });
    expect(options.endpoint).toBe('http://127.0.0.1:9/v1');
    const { client } = toRunDeps(options, logger, suite());
    expect([client.endpoint, client.identity.endpoint]).toEqual([
      options.endpoint,
      options.endpoint,
    ]);
  });
});

/** The message `parse` throws with. */
function thrown(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('parsed without an error');
}

describe('option errors name the door: `--endpoint` on the CLI, `input endpoint` in the Action', () => {
  const e = 'e.g. http://127.0.0.1:8000/v1';
  it.each([
    ['no endpoint', { endpoint: '' }, `endpoint is required (the API base URL, ${e})`],
    [
      'an endpoint without a scheme',
      { endpoint: '127.0.0.1:8000/v1' },
      `endpoint "127.0.0.1:8000/v1" has no scheme: it must start with http:// or https://, ${e}`,
    ],
    [
      'an endpoint that is no URL',
      { endpoint: 'http://' },
      `endpoint "http://" is not a URL; give the API base URL, ${e}`,
    ],
    [
      'an endpoint over another protocol',
      { endpoint: 'ftp://127.0.0.1/v1' },
      `endpoint "ftp://127.0.0.1/v1" must start with http:// or https://, ${e}`,
    ],
    ['a bad number', { samples: '0' }, 'samples must be an integer in 1..100, got "0"'],
    ['a bad name', { name: 'a b' }, 'name: letters, digits, . _ - (at most 64)'],
  ])('%s', (_what, bad, message) => {
    const raw = { ...required, ...bad };
    expect(thrown(() => parseRunOptions(raw))).toBe(`--${message}`);
    expect(thrown(() => parseRunOptions(raw, 'cli'))).toBe(`--${message}`);
    expect(thrown(() => parseRunOptions(raw, 'action'))).toBe(`input ${message}`);
  });
});
