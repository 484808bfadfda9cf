import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/cli.js';

/**
 * The Node versions tracegate runs on, said once and the same everywhere:
 * package.json's `engines` (and the lockfile's copy), the README's sentence,
 * action.yml's `runs.using`, the versions CI tests, and what the lockfile's
 * own packages accept.
 */
const ROOT = join(FIXTURES, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
// semver is ts-jest's own dependency, so it is here whenever this test runs.
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

interface Lock {
  packages: Record<string, { engines?: { node?: string }; dev?: boolean }>;
}
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const lock = JSON.parse(read('package-lock.json')) as Lock;

/** The README's "Node 20.19+, 22.13+ or 24+": the lowest version of each line it names. */
function readmeVersions(): string[] {
  const said = /\(Node ((?:\d+(?:\.\d+)?\+(?:, | or ))+\d+(?:\.\d+)?\+)/.exec(read('README.md'));
  if (!said) throw new Error('README.md does not say which Node versions it needs');
  return said[1]!.split(/, | or /).map((v) => semver3(v.replace('+', '')));
}

const semver3 = (v: string): string => [...v.split('.'), '0', '0'].slice(0, 3).join('.');

describe('the Node versions tracegate runs on', () => {
  it('engines, the lockfile and the README say the same versions', () => {
    expect(lock.packages['']!.engines?.node).toBe(engines);
    const versions = readmeVersions();
    expect(versions).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    // Each version the README names is the first of its line that engines accepts.
    for (const v of versions) {
      expect(semver.satisfies(v, engines)).toBe(true);
      const [major, minor] = v.split('.').map(Number) as [number, number];
      const before = minor > 0 ? `${major}.${minor - 1}.99` : `${major - 1}.99.99`;
      expect({ before, accepted: semver.satisfies(before, engines) }).toEqual({
        before,
        accepted: false,
      });
    }
  });

  it("the Action's runtime (action.yml runs.using) and CI's versions are among them", () => {
    const using = /^runs:\n {2}using: node(\d+)$/m.exec(read('action.yml'))?.[1];
    expect(using).toBe('24');
    expect(semver.satisfies(`${using}.0.0`, engines)).toBe(true);
    const ci = [...read('.github/workflows/ci.yml').matchAll(/node-version: '?([\d.]+)'?/g)].map(
      (m) => semver3(m[1]!),
    );
    // CI runs on the Action's runtime and on the lowest version the README names.
    expect(ci).toEqual(expect.arrayContaining([`${using}.0.0`, readmeVersions()[0]]));
    for (const v of ci) expect(semver.satisfies(v, engines)).toBe(true);
  });

  it('this test runs on a version engines accepts', () => {
    expect(semver.satisfies(process.versions.node, engines)).toBe(true);
  });

  it('every package of the lockfile accepts those versions, but the one the README names', () => {
    const refusing = (v: string) =>
      Object.entries(lock.packages)
        .filter(([path, p]) => path && p.engines?.node && !semver.satisfies(v, p.engines.node))
        .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} ${p.engines!.node}`);
    const [oldest, ...rest] = readmeVersions();
    // content-type 3 declares >=22, yet its code runs on 20; only the Action's GitHub calls use it, on node24.
    expect(refusing(oldest!)).toEqual(['content-type >=22']);
    expect(read('README.md')).toMatch(
      /`content-type` \(under `@octokit\/request`\) wants Node ≥ 22/,
    );
    for (const v of rest) expect(refusing(v)).toEqual([]);
  });
});
