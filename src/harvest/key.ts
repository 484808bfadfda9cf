import type { Environment } from '../instances/schema.js';
import { canonicalJson, sha256 } from '../util/hash.js';

/**
 * Digest of an environment recipe as it will be built: the recipe plus the
 * base image it builds on. Computable without a Docker engine, so a warm
 * cache needs none. The exact interpreter version lands in each oracle's meta.
 */
export function environmentDigest(env: Environment, baseImage: string): string {
  return sha256('env/v1', canonicalJson({ ...env, base_image: env.base_image ?? baseImage }));
}

/** Content address of an oracle: instance bytes × environment × tracer. */
export function oracleKey(instanceHash: string, envDigest: string, tracerDigest: string): string {
  return sha256('oracle/v1', instanceHash, envDigest, tracerDigest);
}
