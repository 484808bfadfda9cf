import { lstatSync } from 'node:fs';
import { UsageError } from '../../errors.js';

/**
 * `path`, when it is a real directory or absent (its store creates it); refused by name when it is a
 * symbolic link or anything but a directory. A cache restored from the Actions cache, or a history
 * directory, is data from outside: a link in it would make tracegate read its entries from, and
 * write new ones into, wherever the link points on this machine.
 */
export function realDir(path: string, what: string): string {
  const found = lstatSync(path, { throwIfNoEntry: false });
  if (found && !found.isDirectory())
    throw new UsageError(
      `${what} ${path} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a directory'}: tracegate ` +
        'never reads or writes a cache or a history through one (it could point anywhere on this ' +
        'machine). Remove it (a run creates the directory), or give another directory.',
    );
  return path;
}
