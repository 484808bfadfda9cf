// Bundles the Action (dist/index.js) and the CLI (dist/cli/index.js) with ncc.
// The output is ESM (package.json "type": "module") because the @actions/*
// packages are ESM-only. Some CommonJS dependencies bundled inside read
// `__dirname`/`__filename`, which ESM does not define: a banner defines both
// (and `require`) from import.meta before any bundled code runs.
// Each target is built into a scratch directory and its files renamed into place: a CLI that is
// running keeps the files it opened (its native addons are mapped; rewriting them in place killed
// a running harvest with SIGSEGV), and a build that fails leaves dist as it was.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

const BANNER = [
  "import { createRequire as __tgCreateRequire } from 'node:module';",
  "import { fileURLToPath as __tgFileURLToPath } from 'node:url';",
  "import { dirname as __tgDirname } from 'node:path';",
  'const __filename = __tgFileURLToPath(import.meta.url);',
  'const __dirname = __tgDirname(__filename);',
  'const require = __tgCreateRequire(import.meta.url);',
  '',
].join('\n');

const targets = [
  { entry: 'src/index.ts', out: 'dist' },
  { entry: 'src/cli.ts', out: 'dist/cli', bin: true },
];

/** Every file under `dir`, recursively. */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );

for (const { entry, out, bin } of targets) {
  mkdirSync('dist', { recursive: true });
  const scratch = mkdtempSync('dist/.build-');
  try {
    try {
      build(entry, scratch, bin);
    } catch {
      // ncc printed what is wrong (file, line, message) above: no stack trace of ours after it.
      console.error(`bundle: ncc could not build ${entry} (its error above); ${out}/ is unchanged`);
      process.exitCode = 1;
      break;
    }
    for (const file of filesUnder(scratch)) {
      const to = join(out, relative(scratch, file));
      mkdirSync(dirname(to), { recursive: true });
      renameSync(file, to);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function build(entry, out, bin) {
  execFileSync(
    'npx',
    [
      'ncc',
      'build',
      entry,
      '-o',
      out,
      '--license',
      'licenses.txt',
      '--quiet',
      '--target',
      'es2022',
    ],
    {
      stdio: 'inherit',
    },
  );
  const file = `${out}/index.js`;
  let code = readFileSync(file, 'utf8').replace(/^#!.*\n/, '');
  code = (bin ? '#!/usr/bin/env node\n' : '') + BANNER + code;
  writeFileSync(file, code);
  if (bin) chmodSync(file, 0o755);
}
