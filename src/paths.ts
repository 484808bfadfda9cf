import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The tracegate package root (holding tracer/ and instances/), found by
 * walking up from this module: works from src/ under jest and from the
 * bundles in dist/ and dist/cli/ alike.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'tracer', 'harvest.py')) && existsSync(join(dir, 'package.json')))
      return dir;
    dir = dirname(dir);
  }
  throw new Error(
    'tracegate: cannot find its package root (tracer/harvest.py) above ' +
      fileURLToPath(import.meta.url),
  );
}

export const tracerDir = (): string => join(packageRoot(), 'tracer');
export const bundledInstancesDir = (): string => join(packageRoot(), 'instances');
