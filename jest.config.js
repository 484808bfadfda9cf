/**
 * jest runs the TypeScript sources as native ESM (package.json "type":
 * "module"), because @actions/core 3, @actions/github 9 and @actions/cache 6
 * are ESM-only. `npm test` passes --experimental-vm-modules for that.
 *
 * Two projects: `unit` (pure logic, fakes, fixture files) runs its files in
 * parallel workers; `integration` (one Docker engine, images being built,
 * loopback servers) must run its files one at a time. Workers are a global
 * setting in jest, not a project's, so scripts/test.mjs runs the projects as
 * two invocations: `--selectProjects unit`, then `--selectProjects
 * integration --runInBand`.
 */
const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
};

/** @type {import('jest').Config} */
export default {
  // Global, not per project: jest-circus reads the run's testTimeout, not a project's.
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
    },
  ],
};
