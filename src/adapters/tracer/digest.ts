import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sha256 } from '../../util/hash.js';

/** Tracer sources that decide an oracle; tests and docs do not. */
function tracerSources(dir: string, root = dir): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['tests', '__pycache__', '.pytest_cache'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...tracerSources(path, root));
    else if (entry.name.endsWith('.py')) files.push(path);
  }
  return files.sort((a, b) => (relative(root, a) < relative(root, b) ? -1 : 1));
}

/** Digest of the tracer's code: a tracer change invalidates every cached oracle. */
export function tracerDigest(dir: string): string {
  return sha256(
    'tracer/v1',
    ...tracerSources(dir).flatMap((f) => [relative(dir, f), readFileSync(f)]),
  );
}
