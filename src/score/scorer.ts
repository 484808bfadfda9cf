/**
 * The scorer's identity, `name@version`, recorded in every results file's
 * provenance: runs scored by different scorers are never compared. Bump the
 * version whenever compareValues' rules change what it accepts.
 */
export const DEFAULT_SCORER = 'tracegate-strict@1';
