import { z } from 'zod';

const EXAMPLE = 'http://127.0.0.1:8000/v1';
const REQUIRED = `--endpoint is required (the API base URL, e.g. ${EXAMPLE})`;

/** Why `endpoint` is not an http(s) base URL, or undefined when it is one. */
function endpointProblem(endpoint: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint))
    return (
      'has no scheme: it must start with http:// or https://, ' +
      `e.g. http://${endpoint.replace(/^\/+/, '')}`
    );
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `is not a URL; give the API base URL, e.g. ${EXAMPLE}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must start with http:// or https://, e.g. ${EXAMPLE}`;
  return undefined;
}

/**
 * The candidate's API base URL (e.g. `http://127.0.0.1:8000/v1`), checked and
 * normalised once, when the options are parsed: http or https, no trailing
 * slash. The client, the results' model and the response-cache keys take it
 * as parsed. Messages name the CLI's flag, as every option's do;
 * config/options.ts words them for the Action's door.
 */
export const endpointSchema = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .transform((endpoint, ctx) => {
    const problem = endpointProblem(endpoint);
    if (problem === undefined) return endpoint.replace(/\/+$/, '');
    ctx.addIssue({ code: 'custom', message: `--endpoint "${endpoint}" ${problem}` });
    return z.NEVER;
  });
