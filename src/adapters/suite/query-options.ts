import type { Instance } from '../../contracts/instance.js';
import { QUERY_OPTIONS } from '../../contracts/query-options.js';

const quoted = (values: readonly unknown[]): string =>
  values.map((v) => JSON.stringify(v)).join(', ');

/**
 * Why an instance's query is not one the tracer's rule for its kind and mode
 * reads (contracts/query-options.ts, generated from the rules): an unknown
 * mode, an option no rule of that mode reads (a misspelling would otherwise be
 * ignored and the question asked without it), or a value outside the option's
 * closed set. `undefined` when the query is fine. An instance with its own
 * parser is not asked: its query is the parser's to read.
 */
export function queryOptionProblem(
  instance: Pick<Instance, 'id' | 'kind' | 'query' | 'parser'>,
): string | undefined {
  if (instance.parser) return undefined;
  const { id, kind, query } = instance;
  const { default: fallback, modes } = QUERY_OPTIONS[kind];
  const mode = query.mode ?? fallback;
  const options = typeof mode === 'string' && Object.hasOwn(modes, mode) ? modes[mode] : undefined;
  if (!options)
    return `query.mode: unknown mode ${JSON.stringify(mode)} for ${kind} in instance "${id}" (modes: ${Object.keys(modes).join(', ')})`;
  const which = `${kind} mode "${mode}"${query.mode === undefined ? ' (the default)' : ''} in instance "${id}"`;
  for (const [name, value] of Object.entries(query)) {
    if (!Object.hasOwn(options, name))
      return `query.${name}: unknown option for ${which} (options: ${Object.keys(options).join(', ')})`;
    const values = options[name];
    if (values && !values.includes(value as string))
      return `query.${name}: ${JSON.stringify(value)} is not a value of this option for ${which} (values: ${quoted(values)})`;
  }
  return undefined;
}
