// Pairing by construction: a run with a baseline selects what the baseline selected, unless told
// otherwise, so every baseline item has its pair; and the variants' epoch rolls with the calendar
// on push runs while a pull request answers its baseline's epoch.
import type { SelectionRecord } from '../../contracts/results.js';
import type { RunOptions } from './options.js';

/** The epoch `auto` gives on a date: the ISO year and week, e.g. 202649 (week 49 of 2026). */
export function isoWeekEpoch(date: Date): number {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday); // the Thursday of this ISO week decides its year
  const year = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return year * 100 + week;
}

/** The selection options a run may inherit from its baseline. */
const INHERITED = ['categories', 'ids', 'sample', 'seed', 'variants', 'variant-epoch'] as const;

/**
 * The options with every selection option the user left unset taken from
 * the baseline's recorded selection (said in the log), so the run pairs with
 * every baseline item; an option the user set is kept, and the verdict line
 * names the difference. `variant-epoch: auto` becomes the baseline's epoch,
 * else (no baseline, or one without variants) the ISO week of `now`.
 */
export function inheritSelection(
  options: RunOptions,
  recorded: SelectionRecord | undefined,
  log: (message: string) => void,
  now: Date = new Date(),
): RunOptions {
  const out: RunOptions = { ...options };
  const taken: string[] = [];
  const take = <K extends keyof RunOptions>(key: K, value: RunOptions[K], said: string) => {
    out[key] = value;
    taken.push(said);
  };
  if (recorded) {
    if (out.categories === undefined && out.ids === undefined) {
      if (recorded.categories) take('categories', recorded.categories, 'categories');
      if (recorded.ids) take('ids', recorded.ids, 'ids');
    }
    if (out.sample === undefined && recorded.sample !== undefined)
      take('sample', recorded.sample, `sample ${recorded.sample}`);
    if (out.seed === undefined && recorded.seed !== 0)
      take('seed', recorded.seed, `seed ${recorded.seed}`);
    if (out.variants === undefined && recorded.variants)
      take(
        'variants',
        recorded.variants.mode === 'only'
          ? { mode: 'only' }
          : { mode: 'add', count: recorded.variants.count ?? 0 },
        `variants ${recorded.variants.mode}`,
      );
    const epoch = out['variant-epoch'];
    if (out.variants && recorded.variants && (epoch === undefined || epoch === 'auto'))
      take('variant-epoch', recorded.variants.epoch, `variant epoch ${recorded.variants.epoch}`);
  }
  if (out['variant-epoch'] === undefined || out['variant-epoch'] === 'auto')
    out['variant-epoch'] = options['variant-epoch'] === 'auto' ? isoWeekEpoch(now) : 1;
  if (taken.length)
    log(
      `Selection as the baseline's (${taken.join(', ')}): every baseline item has its pair. ` +
        `Set ${INHERITED.filter((k) => k !== 'variant-epoch').join('/')} to choose otherwise.`,
    );
  return out;
}

/** What a run records of its selection (after inheritSelection: every value is resolved). */
export function selectionRecord(options: RunOptions): SelectionRecord {
  const epoch = options['variant-epoch'];
  return {
    ...(options.categories ? { categories: options.categories } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.sample !== undefined ? { sample: options.sample } : {}),
    seed: options.seed ?? 0,
    ...(options.variants
      ? {
          variants: {
            mode: options.variants.mode,
            ...(options.variants.mode === 'add' ? { count: options.variants.count } : {}),
            epoch: typeof epoch === 'number' ? epoch : 1,
          },
        }
      : {}),
  };
}
