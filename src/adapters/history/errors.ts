import { ExitCode, TracegateError } from '../../errors.js';
import { HISTORY_SCHEMA } from '../../contracts/history.js';

/**
 * The history holds a file written by a newer tracegate (`tracegate/history@N`,
 * N above ours). Reading past it could misread what it means, so nothing is
 * guessed: the run stops and says to upgrade.
 */
export class HistoryVersionError extends TracegateError {
  readonly exitCode = ExitCode.Usage;
  constructor(
    readonly file: string,
    readonly found: string,
  ) {
    super(
      `${file} was written by a newer tracegate (${found}); this one reads ${HISTORY_SCHEMA}. ` +
        'Upgrade tracegate (the Action: a newer `uses: …@vN`; the CLI: `npm install -g tracegate@latest`), ' +
        'or point the history at another branch or directory.',
    );
    this.name = 'HistoryVersionError';
  }
}

/** A history could not be read or written (the API refused it, a race never settled). */
export class HistoryAccessError extends TracegateError {
  readonly exitCode = ExitCode.Infrastructure;
  constructor(
    message: string,
    /** The HTTP status behind it, when there was one (403: the token may not write). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HistoryAccessError';
  }
}

/** An explicit baseline commit has no entry in the history. */
export class BaselineNotFoundError extends TracegateError {
  readonly exitCode = ExitCode.Usage;
  constructor(message: string) {
    super(message);
    this.name = 'BaselineNotFoundError';
  }
}
