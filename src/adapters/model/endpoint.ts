import { z } from 'zod';
import type { Protocol } from './protocol.js';
import { PROTOCOLS } from './protocols.js';

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

/**
 * The routes the protocols append, longest first (`/chat/completions` before
 * `/completions`): a URL pasted with one of them would be asked at a doubled path.
 */
const ROUTES = Object.values(PROTOCOLS)
  .map((p: Protocol) => p.path)
  .sort((a, b) => b.length - a.length);

/**
 * `options` with the endpoint's pasted route (`…/v1/chat/completions`) cut
 * back to the API base, saying so through `warn`; unchanged otherwise.
 */
export function withApiBase<T extends { endpoint: string }>(
  options: T,
  warn: (message: string) => void,
): T {
  const route = ROUTES.find((r) => options.endpoint.endsWith(r));
  if (!route) return options;
  const base = options.endpoint.slice(0, -route.length);
  warn(
    `The endpoint ${options.endpoint} ends in the route ${route}, which tracegate adds itself: ` +
      `using the API base ${base} (give that as the endpoint to silence this notice).`,
  );
  return { ...options, endpoint: base };
}
