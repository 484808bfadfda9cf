import type Docker from 'dockerode';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resultsSchema } from '../../src/contracts/results.js';
import { sha256 } from '../../src/util/hash.js';
import { FIXTURES, runCli, tempDir } from '../helpers/cli.js';
import { requireDocker } from '../helpers/docker.js';
import { cachedOracles, oracleEchoAgent, oracleEchoServer } from '../helpers/echo-model.js';
import { PYTEST, pytestImage } from '../helpers/images.js';

const SWE_FLUX = join(FIXTURES, 'swe-flux');
const RUN = join(SWE_FLUX, 'run');
/** The image name the fixture run's run_qa_fromhost.sh names (as a SWE-Flux run names its repository's image). */
const RUN_IMAGE = 'swe-flux/calc:fixture';
const IDS = [
  'core_accumulator_m6_calls',
  'core_accumulator_s6_calls',
  'core_classify_s1_cfg',
  // Its parser refuses a traced file outside its working directory, as SWE-Flux's do.
  'core_classify_s1_paths',
  'core_divide_s5_exceptions',
  'core_total_m1_cfg',
  'core_total_s2_loops',
];

/**
 * A SWE-Flux-style image of the fixture repository: a venv with pytest on PATH, the repository at
 * /testbed, installed in place as an editable install does it (a .pth line: `calc` imports from
 * /testbed, whatever the working directory).
 */
function fixtureImage(docker: Docker): Promise<string> {
  const core = readFileSync(join(SWE_FLUX, 'testbed', 'calc', 'core.py'));
  const lines = [
    'ENV PATH=/opt/venv/bin:$PATH',
    'WORKDIR /testbed',
    'RUN echo /testbed > /opt/venv/lib/python3.11/site-packages/calc-editable.pth',
  ];
  return pytestImage(docker, {
    tag: `tracegate-test-swe-flux:${sha256(core, ...PYTEST, ...lines).slice(0, 12)}`,
    base: 'tracegate/base:bookworm',
    python: '3.11',
    copy: [join(SWE_FLUX, 'testbed')],
    lines,
  });
}

describe('a SWE-Flux run directory as a suite', () => {
  let image: string;
  beforeAll(async () => {
    image = await fixtureImage(await requireDocker());
  }, 600_000);

  it("harvests each instance by its own harness in the run's image, reproduces the published oracles, and scores answers in both modes", async () => {
    const cache = tempDir('tg-swe-flux-');
    const images = ['--swe-flux-images', `${RUN_IMAGE}=${image}`];
    const harvest = await runCli(['harvest', '--instances', RUN, '--cache', cache, ...images]);
    expect(harvest.stderr).not.toContain('warning');
    expect({ code: harvest.code, totals: harvest.stdout.split('\n')[0] }).toEqual({
      code: 0,
      totals: `oracles: 0 cached, ${IDS.length} harvested, 0 failed`,
    });
    const published = new Map(
      IDS.map((id) => {
        const oracle = JSON.parse(
          readFileSync(join(RUN, 'instances', id, 'oracle.json'), 'utf8'),
        ) as {
          question: string;
          oracle_answer: unknown;
        };
        return [oracle.question, oracle.oracle_answer] as const;
      }),
    );
    // The cache holds the re-run's oracles: SWE-Flux's questions, its answers, reproduced.
    expect(new Map([...cachedOracles(cache)].sort())).toEqual(new Map([...published].sort()));

    /** A run of the fixture over the harvested cache, against `url`. */
    const answer = (url: string, model: string, out: string, ...extra: string[]) => {
      const run = ['run', '--instances', RUN, '--cache', cache, ...images, '--endpoint', url];
      return runCli([...run, '--model', model, '--out', out, ...extra]);
    };
    const echo = oracleEchoServer(published);
    const url = `${await echo.start()}/v1`;
    try {
      for (const scoring of ['strict', 'swe-flux']) {
        const out = join(cache, `out-${scoring}`);
        const run = await answer(url, 'oracle-echo', out, '--scoring', scoring);
        expect(run.code).toBe(0);
        const results = resultsSchema.parse(
          JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
        );
        expect(results.provenance.scorer).toBe(
          scoring === 'strict' ? 'tracegate-strict@3' : 'swe-flux-compat@2',
        );
        expect(results.instances.map((r) => [r.id, r.correct])).toEqual(
          IDS.map((id) => [id, true]),
        );
        expect(results.harvest.harvested).toBe(0);
        // SWE-Flux's own question is what the model was asked.
        const asked = echo.seen.map((r) => JSON.stringify(r.body));
        expect(asked.some((b) => b.includes('methods of `calc.core.Accumulator`'))).toBe(true);
      }
    } finally {
      await echo.stop();
    }

    // SWE-Flux's own setting: the model reads the repository (the image's /testbed) with tools.
    const agent = oracleEchoAgent(published);
    const agentUrl = await agent.start();
    try {
      const out = join(cache, 'out-repo');
      const run = await answer(agentUrl, 'oracle-echo-agent', out, '--context', 'repo');
      expect(run.code).toBe(0);
      const results = resultsSchema.parse(
        JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')),
      );
      expect(results.instances.map((r) => [r.id, r.correct])).toEqual(IDS.map((id) => [id, true]));
      expect(results.harvest.harvested).toBe(0);
      // Each read the target's file from the image's /testbed: numbered source, never a refusal.
      expect(results.instances.map((r) => r.transcript?.turns[0]?.calls[0]?.status)).toEqual(
        IDS.map(() => 'ok'),
      );
      expect(agent.read.every((text) => /^\s+1 {2}/m.test(text))).toBe(true);
      expect(agent.read.some((text) => text.includes('class Accumulator'))).toBe(true);
    } finally {
      await agent.stop();
    }
  }, 900_000);

  it('keeps out an instance whose re-run does not reproduce its published oracle, and says why', async () => {
    const copy = join(tempDir('tg-swe-flux-copy-'), 'run');
    cpSync(RUN, copy, { recursive: true });
    const file = join(copy, 'instances', 'core_total_s2_loops', 'oracle.json');
    const oracle = JSON.parse(readFileSync(file, 'utf8')) as { oracle_answer: unknown };
    oracle.oracle_answer = { loop_iteration_count: 10 };
    writeFileSync(file, JSON.stringify(oracle));
    const cache = tempDir('tg-swe-flux-');
    const harvest = await runCli([
      'harvest',
      '--instances',
      copy,
      '--ids',
      'core_total_s2_loops,core_total_m1_cfg',
      '--cache',
      cache,
      '--swe-flux-images',
      `${RUN_IMAGE}=${image}`,
    ]);
    expect(harvest.stdout.split('\n')[0]).toBe('oracles: 0 cached, 1 harvested, 1 failed');
    expect(harvest.stderr).toContain(
      'core_total_s2_loops: invalid — the re-run does not reproduce the published oracle.json ' +
        '(published {"loop_iteration_count":10}, re-run {"loop_iteration_count":9}): kept out of gating',
    );
  }, 600_000);

  it("hides the published oracles from the instance's harness and ends what its tests leave running with pytest", async () => {
    const copy = join(tempDir('tg-swe-flux-hostile-'), 'run');
    cpSync(RUN, copy, { recursive: true });
    const dir = (id: string) => join(copy, 'instances', id);
    // A forged published answer, and a harness that answers with whatever published oracle it can find.
    const oracleFile = join(dir('core_total_s2_loops'), 'oracle.json');
    const forged = JSON.parse(readFileSync(oracleFile, 'utf8')) as { oracle_answer: unknown };
    forged.oracle_answer = { loop_iteration_count: 4242 };
    writeFileSync(oracleFile, JSON.stringify(forged));
    const evalSh = join(dir('core_total_s2_loops'), 'eval.sh');
    const steal = [
      "stolen=$(find / -path /proc -prune -o -path '*/core_total_s2_loops/oracle.json' -print 2>/dev/null | grep -v /logs/ | head -1 || true)",
      'if [ -n "$stolen" ]; then cp "$stolen" "$ORACLE_JSON"; exit 0; fi',
      'python ',
    ].join('\n');
    writeFileSync(evalSh, readFileSync(evalSh, 'utf8').replace('python ', steal));
    // A test that leaves a process holding eval.sh's `| tee` pipe: eval.sh would wait 300 s for it.
    const testcase = join(dir('core_total_m1_cfg'), 'files', 'testcase.py');
    writeFileSync(
      testcase,
      'import subprocess\n' +
        readFileSync(testcase, 'utf8').replace(
          'def test_no_skip(self):',
          "def test_no_skip(self):\n        subprocess.Popen(['sleep', '300'], start_new_session=True)",
        ),
    );
    const started = Date.now();
    const harvest = await runCli([
      'harvest',
      '--instances',
      copy,
      '--ids',
      'core_total_s2_loops,core_total_m1_cfg,core_classify_s1_cfg',
      '--cache',
      tempDir('tg-swe-flux-'),
      '--swe-flux-images',
      `${RUN_IMAGE}=${image}`,
    ]);
    const seconds = (Date.now() - started) / 1000;
    expect(harvest.stdout.split('\n')[0]).toBe('oracles: 0 cached, 2 harvested, 1 failed');
    expect(harvest.stderr).toContain(
      'core_total_s2_loops: invalid — the re-run does not reproduce the published oracle.json ' +
        '(published {"loop_iteration_count":4242}, re-run {"loop_iteration_count":9}): kept out of gating',
    );
    expect(seconds).toBeLessThan(240); // two runs of the held pipe alone would be 600 s
  }, 600_000);

  it('names the image and the input when the run names an image that is not here', async () => {
    const harvest = await runCli([
      'harvest',
      '--instances',
      RUN,
      '--ids',
      'core_classify_s1_cfg',
      '--cache',
      tempDir('tg-swe-flux-'),
    ]);
    expect(harvest.stdout.split('\n')[0]).toBe('oracles: 0 cached, 0 harvested, 1 failed');
    expect(harvest.stderr).toContain(`image "${RUN_IMAGE}" is not present and could not be pulled`);
    expect(harvest.stderr).toContain(
      `--swe-flux-images "${RUN_IMAGE}=IMAGE" (Action input swe-flux-images)`,
    );
  }, 300_000);

  it('names the missing file of a folder that is not SWE-Flux format, and of an incomplete instance', async () => {
    const bare = join(tempDir('tg-swe-flux-bad-'), 'instances');
    cpSync(join(RUN, 'instances', 'core_total_m1_cfg'), join(bare, 'core_total_m1_cfg'), {
      recursive: true,
    });
    const noShared = await runCli(['harvest', '--instances', bare, '--cache', tempDir()]);
    expect(noShared.code).toBe(2);
    expect(noShared.stderr).toContain(`${join(bare, 'shared', 'files')} is missing`);

    const partial = join(tempDir('tg-swe-flux-bad-'), 'run');
    cpSync(RUN, partial, { recursive: true });
    rmSync(join(partial, 'instances', 'core_total_m1_cfg', 'oracle.json'));
    rmSync(join(partial, 'instances', 'core_total_s2_loops', 'files', 'testcase.py'));
    const listed = await runCli(['stats', '--instances', partial, '--json']);
    expect(listed.stderr).toContain('core_total_m1_cfg: oracle.json is missing');
    expect(listed.stderr).toContain('core_total_s2_loops: files/testcase.py is missing');
    expect((JSON.parse(listed.stdout) as { total: number }).total).toBe(IDS.length - 2);
  });
});
