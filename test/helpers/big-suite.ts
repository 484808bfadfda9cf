// A suite the gate can decide on, from the fixture suite's five instances: each copied into
// numbered ones spread over `files` test files (the gate's clusters).
import { cpSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_SUITE, tempDir } from './cli.js';

/** `items` instances over `files` test files (clusters), ids `<fixture id>-NN`. */
export function bigSuite(items = 96, files = 16): string {
  const root = tempDir('tg-shard-suite-');
  cpSync(join(FIXTURE_SUITE, 'environments'), join(root, 'environments'), { recursive: true });
  const basic = join(FIXTURE_SUITE, 'basic');
  const sources = readdirSync(basic).sort();
  for (let k = 0; k < items; k++) {
    const from = sources[k % sources.length]!;
    const id = `${from}-${String(k).padStart(2, '0')}`;
    const dir = join(root, 'basic', id);
    cpSync(join(basic, from), dir, { recursive: true });
    const instance = JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as {
      id: string;
      tests: string[];
    };
    const [file, test] = instance.tests[0]!.split('::') as [string, string];
    const renamed = `${file.replace(/\.py$/, '')}_${k % files}.py`;
    renameSync(join(dir, file), join(dir, renamed));
    instance.id = id;
    instance.tests = [`${renamed}::${test}`];
    writeFileSync(join(dir, 'instance.json'), JSON.stringify(instance, null, 2));
  }
  return root;
}
