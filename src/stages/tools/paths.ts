/**
 * The rules a path the model writes must pass before the tree looks it up: relative to the
 * repository's root, `/`-separated, no `..`, nothing a terminal or a C string would read
 * differently. `''`, `.` and `./` name the root; empty and `.` parts are dropped.
 */

/** The longest path the tools accept (a longer one is refused unread). */
export const MAX_PATH_CHARS = 1000;

/** A path's parts from the root, or why it is refused (written for the model, with an example). */
export type ParsedPath = { ok: true; parts: string[] } | { ok: false; message: string };

/** The path as a message shows it: quoted and escaped (it may hold control characters), and short. */
export function shown(path: string): string {
  return JSON.stringify(path.length > 80 ? `${path.slice(0, 80)}…` : path);
}

/**
 * Splits `path` into its parts, or refuses it. `example` is a path that would work (the
 * refusals end with it, so that the model's next call can succeed).
 */
export function parsePath(path: string, example: string): ParsedPath {
  const instead = `e.g. ${shown(example)}`;
  if (path.length > MAX_PATH_CHARS)
    return refuse(
      `The path is ${path.length} characters long; paths are at most ${MAX_PATH_CHARS}. Give a path relative to the repository's root, ${instead}.`,
    );
  if (hasControl(path))
    return refuse(
      `The path ${shown(path)} holds a control character; give a plain path relative to the repository's root, ${instead}.`,
    );
  if (path.includes('\\'))
    return refuse(
      `The path ${shown(path)} holds a backslash; parts of a path are separated by "/", ${instead}.`,
    );
  if (path.startsWith('/'))
    return refuse(
      `${shown(path)} is outside the repository; give a path relative to its root, ${instead}.`,
    );
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..'))
    return refuse(
      `${shown(path)} has a ".." part; paths stay inside the repository: give the path from its root without "..", ${instead}.`,
    );
  return { ok: true, parts };
}

function refuse(message: string): ParsedPath {
  return { ok: false, message };
}

// NUL, C0 controls and DEL: a path holding one is never a real file here, and shown back
// unescaped it could rewrite what a terminal or a log displays.
function hasControl(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
