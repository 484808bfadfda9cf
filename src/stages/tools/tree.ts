import type { OverlayFile, SourceView } from '../../contracts/source-view.js';
import { parsePath, shown } from './paths.js';

/** One entry of a directory; a link carries its target, an omitted file why it is not shown. */
export type DirEntry =
  | { name: string; kind: 'file' }
  | { name: string; kind: 'dir' }
  | { name: string; kind: 'link'; target: string }
  | { name: string; kind: 'omitted'; why: string };

/** What a path names in the tree; `refused` and `missing` carry a message for the model. */
export type Lookup =
  | { kind: 'file'; path: string; text: string }
  | { kind: 'dir'; path: string; entries: DirEntry[] }
  | { kind: 'omitted'; path: string; why: string }
  | { kind: 'refused'; message: string }
  | { kind: 'missing'; message: string };

/** One node below a directory, by its path from the root, a file with its text (SourceTree.walk). */
export type TreeNode = { path: string } & (
  Exclude<DirEntry, { kind: 'file' }> | { name: string; kind: 'file'; text: string }
);

/** Symbolic links one lookup follows at most; more is taken for a loop. */
export const MAX_LINK_HOPS = 8;

type Resolved = { path: string } | { refused: string } | { missing: string };

/**
 * The repository as the tools show it: a SourceView plus overlay files (an instance's tests),
 * which win over a view entry of the same path. Lookups resolve symbolic links inside the tree
 * and refuse every path that would leave it. Nothing here touches the filesystem: a link to
 * `/etc` is refused, never read.
 */
export class SourceTree {
  private readonly files = new Map<string, string>();
  private readonly links = new Map<string, string>();
  private readonly omitted = new Map<string, string>();
  /** Directory path (root `''`) → the names directly in it. Directories are implied by paths. */
  private readonly children = new Map<string, Set<string>>([['', new Set()]]);
  /** Where the tree was in the image, as parts (undefined: no absolute link resolves inside). */
  private readonly origin: string[] | undefined;
  /** A path that exists, for the refusals' "e.g." (the first `.py` file, else the first file). */
  private readonly example: string;

  constructor(view: SourceView, overlay: readonly OverlayFile[] = []) {
    this.origin = view.origin.startsWith('/') ? partsOf(view.origin) : undefined;
    for (const [path, text] of Object.entries(view.files)) this.files.set(path, text);
    for (const [path, target] of Object.entries(view.links)) this.links.set(path, target);
    for (const [path, why] of Object.entries(view.omitted)) this.omitted.set(path, why);
    for (const file of overlay) this.addOverlay(file);
    for (const path of [...this.files.keys(), ...this.links.keys(), ...this.omitted.keys()])
      this.addToParents(path);
    const sorted = [...this.files.keys()].sort(byCodeUnits);
    this.example = sorted.find((p) => p.endsWith('.py')) ?? sorted[0] ?? 'setup.py';
  }

  /** What `path` (relative to the root, as the model wrote it) names, links followed. */
  lookup(path: string): Lookup {
    const parsed = parsePath(path, this.exampleFor(path));
    if (!parsed.ok) return { kind: 'refused', message: parsed.message };
    const resolved = this.resolve(path, parsed.parts);
    if ('refused' in resolved) return { kind: 'refused', message: resolved.refused };
    if ('missing' in resolved) return { kind: 'missing', message: resolved.missing };
    const at = resolved.path;
    const text = this.files.get(at);
    if (text !== undefined) return { kind: 'file', path: at, text };
    const why = this.omitted.get(at);
    if (why !== undefined) return { kind: 'omitted', path: at, why };
    return { kind: 'dir', path: at, entries: this.entries(at) };
  }

  /**
   * Every node below the directory `dir` (a path a `dir` lookup returned), depth first, each
   * directory's entries in name order. Links are reported, not followed: a walk sees each file
   * once and cannot loop.
   */
  *walk(dir: string): Generator<TreeNode> {
    for (const entry of this.entries(dir)) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.kind === 'file') yield { ...entry, path, text: this.files.get(path)! };
      else yield { ...entry, path };
      if (entry.kind === 'dir') yield* this.walk(path);
    }
  }

  private entries(dir: string): DirEntry[] {
    const names = [...(this.children.get(dir) ?? [])].sort(byCodeUnits);
    return names.map((name) => this.entry(dir === '' ? name : `${dir}/${name}`, name));
  }

  private entry(path: string, name: string): DirEntry {
    if (this.files.has(path)) return { name, kind: 'file' };
    const target = this.links.get(path);
    if (target !== undefined) return { name, kind: 'link', target };
    const why = this.omitted.get(path);
    if (why !== undefined) return { name, kind: 'omitted', why };
    return { name, kind: 'dir' };
  }

  private exists(path: string): boolean {
    return (
      this.files.has(path) ||
      this.links.has(path) ||
      this.omitted.has(path) ||
      this.children.has(path)
    );
  }

  /**
   * Walks `parts` from the root one at a time, expanding each link where it is met (its target's
   * parts replace it, so `..` in a target pops the directory actually reached, as the kernel
   * does). `..` only ever comes from a link's target: the model's own path has none.
   */
  private resolve(requested: string, parts: string[]): Resolved {
    const reached: string[] = [];
    const queue = [...parts];
    let hops = 0;
    let via: { link: string; target: string } | undefined; // the last link followed
    const here = (): string => reached.join('/');
    while (queue.length) {
      const name = queue.shift()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (!reached.length) return { refused: this.outside(requested, via) };
        reached.pop();
        continue;
      }
      const path = [...reached, name].join('/');
      const target = this.links.get(path);
      if (target !== undefined) {
        if (++hops > MAX_LINK_HOPS)
          return {
            refused: `${shown(requested)} goes through more than ${MAX_LINK_HOPS} symbolic links (a loop?); list_dir ${shown(here() || '.')} and read the files by their own paths.`,
          };
        via = { link: path, target };
        const inside = target.startsWith('/') ? this.insideOrigin(target) : partsOf(target);
        if (inside === undefined) return { refused: this.outside(requested, via) };
        if (target.startsWith('/')) reached.length = 0;
        queue.unshift(...inside);
        continue;
      }
      if (!this.exists(path))
        return {
          missing: `There is no ${shown(path)} in the repository${path === requested ? '' : ` (looking up ${shown(requested)})`}; list_dir ${shown(here() || '.')} shows what is there, and search finds a name anywhere.`,
        };
      if (queue.some((p) => p !== '' && p !== '.') && !this.children.has(path))
        return {
          missing: `${shown(path)} is a file, not a directory; read it with read_file, or list_dir ${shown(here() || '.')}.`,
        };
      reached.push(name);
    }
    return { path: here() };
  }

  // An absolute target names a place in the image: inside the tree only below its origin.
  private insideOrigin(target: string): string[] | undefined {
    if (this.origin === undefined) return undefined;
    const parts = partsOf(target);
    const origin = this.origin;
    if (parts.length < origin.length || origin.some((part, i) => parts[i] !== part))
      return undefined;
    return parts.slice(origin.length);
  }

  private outside(requested: string, via?: { link: string; target: string }): string {
    const what = via
      ? `${shown(via.link)} is a symbolic link to a path outside the repository (${shown(via.target)})`
      : `${shown(requested)} leads outside the repository`;
    return `${what}; only files inside the repository can be read: list_dir ${shown('.')} shows them.`;
  }

  // An absolute path the model took from a traceback usually starts with the origin: the
  // refusal then suggests the same path from the root.
  private exampleFor(path: string): string {
    if (!path.startsWith('/') || !this.origin) return this.example;
    const inside = this.insideOrigin(path);
    return inside?.length ? inside.join('/') : this.example;
  }

  private addOverlay(file: OverlayFile): void {
    const parsed = parsePath(file.path, 'tests/test_x.py');
    if (!parsed.ok || !parsed.parts.length)
      throw new Error(
        `overlay file ${shown(file.path)} cannot be laid over the tree: ${parsed.ok ? 'it names the root' : parsed.message}`,
      );
    const path = parsed.parts.join('/');
    // The overlay file must be reachable at its own path: nothing of the view's stands in its
    // way, neither at the path nor at a parent (a parent that was a file or a link).
    for (let i = 1; i <= parsed.parts.length; i++) {
      const prefix = parsed.parts.slice(0, i).join('/');
      this.files.delete(prefix);
      this.links.delete(prefix);
      this.omitted.delete(prefix);
    }
    this.files.set(path, file.text);
  }

  private addToParents(path: string): void {
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      let names = this.children.get(dir);
      if (!names) this.children.set(dir, (names = new Set()));
      names.add(parts[i]!);
    }
  }
}

/** A path's parts, empty and `.` parts dropped (`..` kept: a link target may climb). */
function partsOf(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

/** Code-unit order: the same in every locale, so the same tree lists the same bytes. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
