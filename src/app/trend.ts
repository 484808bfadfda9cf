import type { Logger } from './config/assemble.js';
import type { IndexRow } from '../contracts/history.js';
import { messageOf } from '../errors.js';
import type { HistoryStore } from '../adapters/history/store.js';

/** The history's rows for the trend; a history that cannot be read only costs the chart. */
export async function trendRows(
  history: HistoryStore | undefined,
  logger: Pick<Logger, 'warn'>,
): Promise<IndexRow[]> {
  if (!history) return [];
  return history.index().catch((error: unknown) => {
    logger.warn(`tracegate could not read the history for the trend: ${messageOf(error)}`);
    return [];
  });
}
