import { sha256 } from '../../util/hash.js';

/** Content address of an oracle: instance bytes × effective environment × tracer. */
export function oracleKey(instanceHash: string, envDigest: string, tracerDigest: string): string {
  return sha256('oracle/v2', instanceHash, envDigest, tracerDigest);
}
