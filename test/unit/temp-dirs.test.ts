import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sweepTempDirs } from '../../src/adapters/backends/temp-dirs.js';
import { tempDir } from '../helpers/cli.js';

describe("the temp directories of a killed run are removed by the next one's sweep", () => {
  it("removes those whose process is gone, keeps this process's, a live one's and any other", () => {
    const dir = tempDir('tg-sweep-');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!; // exited: its pid names no process
    const names = [
      `tracegate-plan-${gone}-a1b2c3`,
      `tracegate-build-${gone}-d4e5f6`,
      `tracegate-plan-${process.pid}-mine00`,
      'tracegate-local-1-init00', // pid 1 is alive
      'tracegate-plan-old-format',
      'someone-else',
    ];
    for (const name of names) mkdirSync(join(dir, name, 'inner'), { recursive: true });
    expect(sweepTempDirs(dir)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(names.slice(2).sort());
    expect(existsSync(join(dir, `tracegate-plan-${process.pid}-mine00`, 'inner'))).toBe(true);
  });
});
