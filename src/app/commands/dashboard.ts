import { writeFileAtomic } from '../../adapters/stores/atomic.js';
import { renderDashboard } from '../../stages/report/dashboard.js';
import type { Logger } from '../config/assemble.js';
import { historyStore } from '../config/history.js';

/** `tracegate dashboard`: one self-contained page of the history's scores, written to `file`. */
export async function dashboardCommand(
  history: string,
  file: string,
  logger: Logger,
): Promise<number> {
  const rows = await historyStore(history, logger).index();
  if (!rows.length) logger.warn(`${history} holds no history entries yet: the dashboard is empty.`);
  writeFileAtomic(file, renderDashboard(rows));
  return rows.length;
}
