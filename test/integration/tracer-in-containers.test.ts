import type Docker from 'dockerode';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../src/util/hash.js';
import { requireDocker } from '../helpers/docker.js';
import { PYTEST, pytestImage } from '../helpers/images.js';
import {
  MOUNT,
  sandboxContainer,
  sandboxHostConfig,
} from '../../src/adapters/backends/sandbox-policy.js';

const TRACER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tracer');

/** The two interpreters the tracer must agree on: settrace only, and both backends. */
const IMAGES = [
  { base: 'tracegate/base:bookworm', python: '3.11', minPassed: 100, backendsSkipped: true },
  { base: 'tracegate/base:trixie', python: '3.13', minPassed: 195, backendsSkipped: false },
];

/** A venv with pytest on the base image (the tracer suite's only dependency). */
function tracerTestImage(docker: Docker, base: string, python: string): Promise<string> {
  const tag = `tracegate-tracer-test:${sha256(base, python, ...PYTEST).slice(0, 16)}`;
  return pytestImage(docker, { tag, base, python });
}

/** Runs the tracer's pytest suite in a locked-down container; returns exit code and output. */
async function runTracerSuite(
  docker: Docker,
  image: string,
): Promise<{ code: number; out: string }> {
  // The product's own sandbox (sandbox-policy.ts), not a copy: the driver's isolation
  // tests run there as they do in a harvest.
  const container = await docker.createContainer(
    sandboxContainer(
      image,
      [
        '/opt/venv/bin/python',
        '-m',
        'pytest',
        '-q',
        '-rfEs', // name every failure and error, and list every skip with its reason
        '-p',
        'no:cacheprovider',
        `${MOUNT.tracer}/tests`,
      ],
      // The SWE-Flux fixtures, the generated query options table and the scripts sit outside tracer/:
      // mounted where tracer/tests finds them (../../test/fixtures, ../../src/contracts/query-options.ts).
      sandboxHostConfig([
        `${TRACER}:${MOUNT.tracer}:ro`,
        `${join(TRACER, '..', 'test', 'fixtures', 'swe-flux')}:${dirname(MOUNT.tracer)}/test/fixtures/swe-flux:ro`,
        `${join(TRACER, '..', 'src', 'contracts', 'query-options.ts')}:${dirname(MOUNT.tracer)}/src/contracts/query-options.ts:ro`,
        // The B1/B2 generator's choices are tested with the tracer (tests/test_generate_comet.py).
        `${join(TRACER, '..', 'scripts')}:${dirname(MOUNT.tracer)}/scripts:ro`,
      ]),
      { 'tracegate.test': 'tracer-suite' },
    ),
  );
  const chunks: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  try {
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    // The summary is the output's last line: read until the stream ends, not for a guessed while.
    const ended = new Promise<void>((resolve) => {
      stream.once('end', () => resolve());
      stream.once('close', () => resolve());
      stream.once('error', () => resolve());
    });
    container.modem.demuxStream(stream, sink, sink);
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    // A stream that never ends (an engine bug) is bounded; the assertion then shows what arrived.
    let backstop: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise((r) => (backstop = setTimeout(r, 60_000)))]);
    clearTimeout(backstop);
    return { code: StatusCode, out: chunks.join('') };
  } finally {
    await container.remove({ force: true, v: true }).catch(() => {});
  }
}

/**
 * The suite's counts for `npm test`'s closing line (scripts/test.mjs sets TRACEGATE_TEST_TOTALS):
 * the tracer's tests are counted one by one, as pytest counted them, not as one jest test.
 */
function reportTotals(python: string, summary: string): void {
  const dir = process.env.TRACEGATE_TEST_TOTALS;
  if (!dir) return;
  const count = (what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(summary)?.[1] ?? 0);
  writeFileSync(
    join(dir, `tracer-python-${python}.json`),
    JSON.stringify({
      python,
      passed: count('passed'),
      failed: count('failed') + count('errors?'),
      skipped: count('skipped'),
    }),
  );
}

describe("the tracer suite inside the harvest sandbox (no network, no capabilities but the driver's)", () => {
  // Both interpreters' suites start at once, one core each (the suite is one pytest process): the
  // two take as long as the slower one instead of their sum. Each test awaits its own.
  const runs = new Map<string, Promise<{ code: number; out: string }>>();
  beforeAll(async () => {
    const docker = await requireDocker();
    for (const { base, python } of IMAGES) {
      const run = tracerTestImage(docker, base, python).then((image) =>
        runTracerSuite(docker, image),
      );
      run.catch(() => {}); // awaited (and reported) by its test
      runs.set(base, run);
    }
  });

  for (const { base, python, minPassed, backendsSkipped } of IMAGES) {
    it(
      `passes on ${base} (Python ${python})`,
      async () => {
        const { code, out } = await runs.get(base)!;
        const summary = out.trim().split('\n').pop() ?? '';
        reportTotals(python, summary);
        // The suite's own closing line (counts and its time) in the log: which image sets the pace.
        console.log(`tracer suite on Python ${python}: ${summary}`);
        // On failure, the suite's last lines say which test failed and why (the progress dots left out:
        // a log that keeps only part of the output keeps the failures' names).
        const tail =
          code === 0
            ? ''
            : out
                .trim()
                .split('\n')
                .filter((line) => !/^[.sFEx]+\s+\[\s*\d+%\]$/.test(line))
                .slice(-60)
                .join('\n');
        expect({ code, summary, tail }).toEqual({
          code: 0,
          summary: expect.stringMatching(/passed/),
          tail: '',
        });
        const passed = Number(/(\d+) passed/.exec(summary)?.[1] ?? 0);
        const skipped = Number(/(\d+) skipped/.exec(summary)?.[1] ?? 0);
        expect(passed).toBeGreaterThanOrEqual(minPassed);
        // On 3.12+ every test runs; below, only the tests comparing the two backends skip
        // (sys.monitoring does not exist there) — no skip for any other reason.
        const reasons = [...out.matchAll(/^SKIPPED \[(\d+)\] .*?: (.*)$/gm)];
        const byReason = reasons.reduce((n, m) => n + Number(m[1]), 0);
        expect(byReason).toBe(skipped);
        expect(reasons.every((m) => m[2] === 'sys.monitoring needs Python 3.12+')).toBe(true);
        if (backendsSkipped) expect(skipped).toBeGreaterThan(0);
        else expect(skipped).toBe(0);
      },
      // A guard against a hang, not a bound on speed: the two suites together took ~6 min here
      // (2026-12; one after the other, 10.5 min).
      30 * 60_000,
    );
  }
});
