import { dockerfile, wheelLayers } from '../../src/adapters/backends/dockerfile.js';
import type { ResolvedEnvironment } from '../../src/contracts/environment.js';

const wheel = (name: string) => ({ name, sha256: 'x', path: `/cache/${name}` });
const RUNNER = [
  'pytest-9.1.1-py3-none-any.whl',
  'pluggy-1.6.0-py3-none-any.whl',
  'Pygments-2.21.0-py3-none-any.whl',
];

function env(name: string, own: string[]): ResolvedEnvironment {
  return {
    recipe: { name, python: '3.11', packages: [] },
    source: { kind: 'packages', wheels: [...own, ...RUNNER].map(wheel) },
    runtime: { backend: 'docker', image: 'base', python: '3.11', note: '' },
    digest: `digest-${name}`,
  } as unknown as ResolvedEnvironment;
}

describe('environment images', () => {
  it("splits the test runner from the environment's own wheels", () => {
    const { runner, own } = wheelLayers([...RUNNER, 'click-8.5.0-py3-none-any.whl'].map(wheel));
    expect(runner.map((w) => w.name)).toEqual(RUNNER);
    expect(own.map((w) => w.name)).toEqual(['click-8.5.0-py3-none-any.whl']);
  });

  it('gives two environments with the same runner the same first layers, and their own after', () => {
    const a = dockerfile('base', env('a', ['click-8.5.0-py3-none-any.whl']), '/tg/checkout').split(
      '\n',
    );
    const b = dockerfile('base', env('b', ['rich-15.0.0-py3-none-any.whl']), '/tg/checkout').split(
      '\n',
    );
    const shared = a.findIndex((line) => line === 'COPY wheels /tmp/wheels');
    expect(shared).toBeGreaterThan(2);
    // FROM, the runner's wheels and the venv with them: identical, so the engine builds them once.
    expect(b.slice(0, shared)).toEqual(a.slice(0, shared));
    expect(a.slice(0, shared).join('\n')).toContain(
      "'/tmp/runner-wheels/pytest-9.1.1-py3-none-any.whl'",
    );
    expect(a.join('\n')).not.toContain('digest-a"\nCOPY');
    // The environment's own wheels after, its labels last.
    expect(a.join('\n')).toContain("'/tmp/wheels/click-8.5.0-py3-none-any.whl'");
    expect(a.filter((l) => l).at(-1)).toBe(
      'LABEL tracegate.environment="a" tracegate.digest="digest-a"',
    );
  });
});
