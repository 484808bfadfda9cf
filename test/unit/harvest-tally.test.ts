import { HarvestTally } from '../../src/stages/harvest/tally.js';
import type { HarvestOutcome } from '../../src/contracts/oracle.js';

describe('the harvest summary', () => {
  it('adds up: a cached entry kept out (a SWE-Flux re-run that does not reproduce) is failed, not cached', () => {
    const tally = new HarvestTally();
    const ok = { status: 'ok' } as unknown as HarvestOutcome;
    const keptOut: HarvestOutcome = { status: 'invalid', reason: 'the re-run does not reproduce' };
    tally.hit('a', ok);
    tally.hit('b', keptOut);
    tally.set('c', ok);
    tally.set('d', { status: 'error', reason: 'boom' });
    const { cached, harvested, failed } = tally.summary();
    expect({ cached, harvested, failed }).toEqual({ cached: 1, harvested: 1, failed: 2 }); // was harvested -1
  });
});
