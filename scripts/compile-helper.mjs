// Compiles one TypeScript module of the repository (and what it imports) to a scratch directory
// with tsc, for the bench scripts that run src/ code outside jest; returns its compiled URL.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export function compileForBench(root, name, file) {
  const out = join(root, 'node_modules', '.cache', name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      ...['--outDir', out, '--rootDir', root, '--module', 'NodeNext', '--moduleResolution'],
      ...['NodeNext', '--target', 'ES2022', '--types', 'node', '--skipLibCheck', '--strict'],
      join(root, file),
    ],
    { stdio: 'inherit' },
  );
  return pathToFileURL(join(out, file.replace(/\.ts$/, '.js'))).href;
}

/** Replaces the text between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in `file`. */
export function writeBetweenMarkers(readFileSync, writeFileSync, file, name, text) {
  const doc = readFileSync(file, 'utf8');
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const [head, rest] = doc.split(begin);
  if (rest === undefined || !rest.includes(end))
    throw new Error(`${file} has no ${begin} … ${end}`);
  writeFileSync(file, `${head}${begin}\n\n${text}\n\n${end}${rest.split(end)[1]}`);
}
