import type { Environment, ResolvedSource, Runtime } from '../../contracts/environment.js';
import { canonicalJson, sha256 } from '../../util/hash.js';

/**
 * Digest of an effective environment: what the code is (every wheel's
 * sha256, the repository's full commit, the image id) and where it runs
 * (the base image it builds on, or the host interpreter's exact version).
 * Host paths and human notes are left out, so the same environment has the
 * same digest on every machine; two sources can never share one.
 */
export function environmentDigest(
  recipe: Environment,
  source: ResolvedSource,
  runtime: Runtime,
): string {
  const code =
    source.kind === 'image'
      ? { kind: 'image', imageId: source.imageId }
      : {
          kind: source.kind,
          wheels: source.wheels.map((w) => [w.name, w.sha256]).sort(),
          ...(source.kind === 'git'
            ? {
                commit: source.commit,
                install: recipe.git?.install,
                paths: recipe.git?.paths,
                command: recipe.git?.command ?? null,
              }
            : {}),
        };
  const where =
    runtime.backend === 'docker'
      ? { backend: 'docker', image: source.kind === 'image' ? null : runtime.image }
      : { backend: 'local', python: runtime.version };
  return sha256('env/v2', canonicalJson({ python: recipe.python ?? null, code, where }));
}
