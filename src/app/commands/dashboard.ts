import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../../adapters/stores/atomic.js';
import { UsageError } from '../../errors.js';
import { renderDashboard } from '../../stages/report/dashboard.js';
import type { Logger } from '../config/assemble.js';
import { historyStore } from '../config/history.js';

/** `tracegate dashboard`: one self-contained page of the history's scores, written to `file`. */
export async function dashboardCommand(
  history: string,
  file: string,
  logger: Logger,
): Promise<number> {
  // A directory history that is not there is a mistake (a typo, the wrong working directory), not
  // an empty history: nothing is written. A branch history is looked up by the store.
  if (!history.startsWith('branch:') && !existsSync(history))
    throw new UsageError(
      `--history ${history} does not exist: give the directory your runs record into ` +
        '(their --history), or branch:NAME for a data branch. Nothing was written.',
    );
  const rows = await historyStore(history, logger).index();
  if (!rows.length) logger.warn(`${history} holds no history entries yet: the dashboard is empty.`);
  writeFileAtomic(file, renderDashboard(rows));
  return rows.length;
}
