// One resolved environment ("env", Python 3.11, a docker image) and instances loaded as if from
// its suite folder /suite/m: for stage tests that hand instances to a fake backend.
import { environmentSchema, type ResolvedEnvironment } from '../../src/contracts/environment.js';
import type { Instance } from '../../src/contracts/instance.js';
import type { LoadedInstance } from '../../src/contracts/suite.js';

export const ENV: ResolvedEnvironment = {
  recipe: environmentSchema.parse({ name: 'env', python: '3.11', packages: [] }),
  source: { kind: 'packages', wheels: [] },
  runtime: { backend: 'docker', image: 'base', note: '' },
  digest: 'e'.repeat(64),
};

/** `instance` as the suite loader gives it: its file under m/, its content hash from its id. */
export function loadedInEnv(instance: Instance): LoadedInstance {
  return {
    instance,
    dir: '/suite/m',
    file: `m/${instance.id}.instance.json`,
    contentHash: instance.id.padEnd(64, '0'),
    environment: ENV.recipe,
    environmentDir: 'environments',
  };
}
