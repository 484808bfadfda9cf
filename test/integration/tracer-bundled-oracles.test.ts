import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oracleSchema } from '../../src/contracts/oracle.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';

const CORE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'instances', 'core');

describe('the bundled suite', () => {
  beforeAll(async () => {
    await requireDocker();
  });

  it(
    'harvests every instance twice in fresh containers, and the two runs agree',
    async () => {
      const cache = tempDir('tg-bundled-');
      const { code, stdout } = await runCli(['harvest', '--instances', CORE, '--cache', cache]);
      const instances = readdirSync(CORE).filter((n) => !n.startsWith('.'));
      const [totals, ...environments] = stdout.trim().split('\n');
      expect({ code, totals }).toEqual({
        code: 0,
        totals: `oracles: 0 cached, ${instances.length} harvested, 0 failed`,
      });
      // Each effective environment says its source and how its image was obtained.
      expect(environments).toEqual([
        expect.stringMatching(
          /^ {2}environment click: packages, .*tracegate\/base:bookworm|python:3\.11-slim/,
        ),
        expect.stringMatching(
          /^ {2}environment jinja2: packages, .*tracegate\/base:bookworm|python:3\.11-slim/,
        ),
      ]);
      const oracles = readdirSync(join(cache, 'oracles')).map((key) =>
        oracleSchema.parse(
          JSON.parse(readFileSync(join(cache, 'oracles', key, 'oracle.json'), 'utf8')),
        ),
      );
      expect(oracles.map((o) => o.meta.instance_id).sort()).toEqual(instances.sort());
      for (const oracle of oracles) expect(oracle.meta.runs_agreed).toBe(2);
      // Every traced item carries its complexity, measured where its oracle was harvested; the
      // core suite's items differ in how much they ask (not one score for all).
      const scores = oracles.map((o) => {
        expect(o.meta.complexity).toMatchObject({ version: 1 });
        return o.meta.complexity!.score;
      });
      expect(new Set(scores).size).toBeGreaterThan(1);
      expect(scores.every((s) => s > 0 && s <= 10)).toBe(true);
    },
    15 * 60_000,
  );
});
