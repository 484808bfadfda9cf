import { UsageError } from '../errors.js';

/** Validates an API base URL such as `http://127.0.0.1:8000/v1`; returns it without trailing slashes. */
export function parseEndpoint(endpoint: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint)) {
    throw new UsageError(
      `--endpoint "${endpoint}" has no scheme: it must start with http:// or https://, ` +
        `e.g. http://${endpoint.replace(/^\/+/, '')}`,
    );
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UsageError(
      `--endpoint "${endpoint}" is not a URL; give the API base URL, e.g. http://127.0.0.1:8000/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `--endpoint "${endpoint}" must start with http:// or https://, e.g. http://127.0.0.1:8000/v1`,
    );
  }
  return endpoint.replace(/\/+$/, '');
}
