import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DirVerifications } from '../../src/adapters/stores/verifications.js';
import type { Verification } from '../../src/contracts/comet.js';
import { tempDir } from '../helpers/cli.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const passing: Verification = { kind: 'B1_BuggyIO', refused: 'not JSON' };

/**
 * A B1/B2 verification is bound to the key it was written for (instance, environment, tracer and
 * reply): copied over another reply's file it is not that reply's (issue 45: it was trusted).
 */
describe('the verification store', () => {
  it('serves a verification only under the key it was written for', () => {
    const dir = tempDir('tg-verifications-');
    const store = new DirVerifications(dir);
    store.put(A, passing);
    expect(store.get(A)).toEqual(passing);
    expect(store.get(B)).toBeUndefined();
    mkdirSync(join(dir, 'bb'), { recursive: true });
    copyFileSync(join(dir, 'aa', `${A}.json`), join(dir, 'bb', `${B}.json`));
    expect(store.get(B)).toBeUndefined(); // another reply's result: run again
    // A bare verification (no key) is no entry either.
    writeFileSync(join(dir, 'bb', `${B}.json`), JSON.stringify(passing));
    expect(store.get(B)).toBeUndefined();
  });
});
