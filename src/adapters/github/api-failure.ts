/**
 * What failed in a request to the GitHub API, in words that are true: a
 * network failure (Octokit reports it as status 500 with no response) is
 * named by its cause — DNS, a refused or reset connection, a timeout, TLS —
 * and only a real reply is called `HTTP <status>`.
 */
export function describeApiFailure(error: unknown): string {
  const e = error as { status?: number; response?: unknown; message?: string; cause?: unknown };
  const message = e.message ?? String(error);
  if (e.status !== undefined && e.response !== undefined) return `HTTP ${e.status}: ${message}`;
  const detail = [message, ...causes(e.cause)].join(' ');
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(detail))
    return `DNS lookup failed (${message}): is the API host reachable from this runner?`;
  if (/ECONNREFUSED/i.test(detail)) return `connection refused (${message})`;
  if (/ECONNRESET|socket hang up|other side closed/i.test(detail))
    return `connection reset (${message})`;
  if (/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|timed? ?out/i.test(detail))
    return `the request timed out (${message})`;
  if (/CERT|SSL|TLS|self.signed/i.test(detail))
    return `TLS failed (${message}): check the API host's certificate and NODE_EXTRA_CA_CERTS`;
  if (e.status !== undefined && e.status !== 500) return `HTTP ${e.status}: ${message}`;
  return `the request failed before any reply (${message})`;
}

function causes(cause: unknown, depth = 0): string[] {
  if (!cause || depth > 3) return [];
  const c = cause as { message?: string; code?: string; cause?: unknown };
  return [c.code ?? '', c.message ?? '', ...causes(c.cause, depth + 1)];
}
