import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Set by `npm run fixtures:update`, the one way reviewed fixtures are (re)written. */
const UPDATING = process.env.TRACEGATE_UPDATE_FIXTURES === '1';

/**
 * Compares `actual` with a reviewed fixture file. A missing or different
 * fixture fails; only `npm run fixtures:update` writes it (then review the diff).
 */
export function expectFixture(file: string, actual: string): void {
  if (UPDATING) {
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) {
    throw new Error(
      `The reviewed fixture ${file} is missing. Run \`npm run fixtures:update\`, review it, and commit it.`,
    );
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
