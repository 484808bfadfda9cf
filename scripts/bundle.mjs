// Bundles the Action (dist/index.js) and the CLI (dist/cli/index.js) with ncc.
// The output is ESM (package.json "type": "module") because the @actions/*
// packages are ESM-only. Some CommonJS dependencies bundled inside read
// `__dirname`/`__filename`, which ESM does not define: a banner defines both
// (and `require`) from import.meta before any bundled code runs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';

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

for (const { entry, out, bin } of targets) {
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
