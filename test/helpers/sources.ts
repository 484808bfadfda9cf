import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** pytest and its dependencies, pinned as the bundled environments pin them. */
export const PYTEST = [
  'pytest==9.1.1',
  'iniconfig==2.3.0',
  'packaging==26.3',
  'pluggy==1.6.0',
  'pygments==2.21.0',
];

/** A tree's entry: a file's text, or a symbolic link to `link`. */
export type TreeEntry = string | { link: string };

/** Writes {relative path: text or link} under `root`. */
export function writeTree(root: string, files: Record<string, TreeEntry>): void {
  for (const [rel, entry] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    if (typeof entry === 'string') writeFileSync(join(root, rel), entry);
    else symlinkSync(entry.link, join(root, rel));
  }
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd })
    .toString()
    .trim();

/** A git repository at `dir` with one commit per tree; returns the full shas, in order. */
export function gitRepo(dir: string, commits: Record<string, TreeEntry>[]): string[] {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '-b', 'main');
  return commits.map((files, i) => {
    writeTree(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '-m', `commit ${i + 1}`);
    return git(dir, 'rev-parse', 'HEAD');
  });
}

/**
 * A minimal pure-Python wheel (a zip with the package and its dist-info),
 * written with Python's zipfile so the test needs no build backend.
 */
export function buildWheel(
  dest: string,
  name: string,
  version: string,
  files: Record<string, string>,
): string {
  const file = join(dest, `${name}-${version}-py3-none-any.whl`);
  mkdirSync(dest, { recursive: true });
  const script = `
import json, sys, zipfile
name, version, path, files = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
info = "%s-%s.dist-info" % (name, version)
entries = dict(files)
entries[info + "/METADATA"] = "Metadata-Version: 2.1\\nName: %s\\nVersion: %s\\n" % (name, version)
entries[info + "/WHEEL"] = "Wheel-Version: 1.0\\nGenerator: tracegate-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
entries[info + "/RECORD"] = "".join("%s,,\\n" % k for k in list(entries) + [info + "/RECORD"])
with zipfile.ZipFile(path, "w") as z:
    for k in sorted(entries):
        info_ = zipfile.ZipInfo(k, date_time=(2020, 1, 1, 0, 0, 0))
        z.writestr(info_, entries[k])
`;
  execFileSync('python3', ['-c', script, name, version, file, JSON.stringify(files)]);
  return file;
}
